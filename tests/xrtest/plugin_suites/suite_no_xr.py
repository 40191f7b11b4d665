"""A suite in which no test uses the `xr` fixture: the app is never opened."""


def test_plain():
    assert True
