"""A user-defined suggestion method, loaded as `tests.context.userplugin:AlwaysTimer` in tests."""

from __future__ import annotations


class AlwaysTimer:
    def fit(self, train, catalog):
        self.fitted_on = [s.id for s in train]

    def suggest(self, context, history, k):
        return ["clock.set_timer", "clock.set_timer", "recipes.open_section"]
