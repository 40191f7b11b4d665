"""Task format: the bundled example loads; broken tasks give one line per problem, naming file and field."""

from __future__ import annotations

import json
import shutil

import pytest

from xrbench.errors import ValidationError
from xrbench.genxr.task import (
    DEFAULT_TASKS_DIR,
    SCHEMA_FILE,
    Capability,
    SceneName,
    TaskType,
    TestKind,
    declared_tests,
    find_task,
    list_templates,
    load_task,
    load_tasks,
    task_json_schema,
)

from .builders import APP_TOML, EXAMPLE_TASK, make_app_task, write


def problems_of(task_dir, *, strict: bool = False) -> list[str]:
    with pytest.raises(ValidationError) as e:
        load_task(task_dir, strict=strict)
    lines = str(e.value).splitlines()
    assert len(lines) == len(e.value.problems)  # one line per problem, never a traceback
    return lines


def test_bundled_example_task_loads():
    task = load_task(EXAMPLE_TASK)
    assert task.id == "example-cube-color" and task.spec.example
    assert task.type is TaskType.APP and not task.type.is_sdk
    assert task.spec.capabilities == [Capability.INTERACTION] and task.spec.scenes == [SceneName.EMPTY]
    assert [t.tag for t in task.spec.tags] == ["color-cube"]
    assert task.spec.workspace is not None and task.spec.workspace.template == "basic"
    assert len(task.tests) == 2 and all(t.kind is None for t in task.tests)
    assert len(task.valid_solutions) >= 1 and len(task.adversarial_solutions) >= 2
    assert all(s.note for s in task.adversarial_solutions)
    assert any(s.patch is not None for s in task.solutions)  # one adversarial is a .patch
    assert "example-cube-color" in [t.id for t in load_tasks(DEFAULT_TASKS_DIR)]


def test_basic_template_is_an_xr_blocks_app():
    assert "basic" in list_templates()
    tpl = DEFAULT_TASKS_DIR.parent / "templates" / "basic"
    html = (tpl / "index.html").read_text()
    imports = json.loads(html.split('<script type="importmap">')[1].split("</script>")[0])["imports"]
    assert imports["xrblocks"].startswith("https://cdn.jsdelivr.net/") and "three" in imports
    assert "new xb.Options()" in (tpl / "main.js").read_text()


def test_minimal_app_task_loads(app_task):
    task = load_task(app_task)
    assert task.spec.agent.timeout_sec == 600 and task.spec.verifier.timeout_sec == 60
    assert [t.id for t in task.tests] == ["tests/test_app.py::test_has_button", "tests/test_app.py::test_turns_red"]


def test_defaults_for_time_limits(tmp_path):
    toml = APP_TOML.replace("[agent]\ntimeout_sec = 600\n\n[verifier]\ntimeout_sec = 60\n", "")
    task = load_task(make_app_task(tmp_path, toml=toml))
    assert task.spec.agent.timeout_sec == 3600 and task.spec.verifier.timeout_sec == 600


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        ('type = "app"', 'type = "game"', "type", "Input should be 'app', 'sdk-feature' or 'sdk-repair'"),
        ('difficulty = "easy"\n', "", "difficulty", "required field is missing"),
        ('"interaction", "ui"', '"interaction", "smell"', "capabilities[1]", "Input should be"),
        ('scenes = ["empty"]', 'scenes = ["garage"]', "scenes[0]", "Input should be"),
        ('scenes = ["empty"]', "scenes = []", "scenes", "at least 1 item"),
        ("[agent]\ntimeout_sec = 600", "[agent]\ntimout_sec = 600", "agent.timout_sec", "unknown field"),
        ("[verifier]\ntimeout_sec = 60", "[verifier]\ntimeout_sec = -1", "verifier.timeout_sec", "greater than 0"),
        ('role = "The button that turns the light red."', 'role = ""', "tags[0].role", "at least 1 character"),
        ('tag = "red-button"', 'tag = "red button"', "tags[0].tag", "should match pattern"),
    ],
)
def test_schema_errors_name_file_and_field(tmp_path, old, new, field, message):
    assert old in APP_TOML
    d = make_app_task(tmp_path, toml=APP_TOML.replace(old, new))
    lines = problems_of(d)
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith(str(d / "task.toml") + ": ")
    assert f": {field}: " in line and message in line


def test_schema_error_locates_the_line(tmp_path):
    d = make_app_task(tmp_path, toml=APP_TOML.replace("[agent]\ntimeout_sec = 600", "[agent]\ntimout_sec = 600"))
    (line,) = problems_of(d)
    n = APP_TOML.splitlines().index("timeout_sec = 600") + 1
    assert line == f"{d / 'task.toml'}: line {n}: agent.timout_sec: unknown field"


def test_invalid_toml_names_the_line(tmp_path):
    d = make_app_task(tmp_path, toml=APP_TOML.replace('difficulty = "easy"', "difficulty = easy"))
    (line,) = problems_of(d)
    assert line.startswith(f"{d / 'task.toml'}: line 4: invalid TOML")


@pytest.mark.parametrize(
    ("change", "file", "field", "message"),
    [
        (
            lambda d: write(d / "instruction.md", "Add a button that turns the light red.\n"),
            "instruction.md",
            "tags[0].tag",
            "'red-button' is not mentioned",
        ),
        (
            lambda d: write(d / "instruction.md", "Add `red-button`; pytest will check it.\n"),
            "instruction.md",
            "",
            "mentions 'pytest'",
        ),
        (
            lambda d: write(d / "instruction.md", "Add `red-button` (see test_turns_red).\n"),
            "instruction.md",
            "",
            "mentions the test 'test_turns_red'",
        ),
        (lambda d: (d / "instruction.md").unlink(), "instruction.md", "", "file not found"),
        (lambda d: shutil.rmtree(d / "solutions" / "valid"), "solutions/valid", "", "at least 1 valid"),
        (
            lambda d: shutil.rmtree(d / "solutions" / "adversarial" / "bad1"),
            "solutions/adversarial",
            "",
            "at least 2 adversarial",
        ),
        (
            lambda d: (d / "solutions" / "adversarial" / "bad0" / "NOTE.md").unlink(),
            "solutions/adversarial/bad0",
            "note",
            "one-line NOTE.md",
        ),
        (
            lambda d: write(d / "solutions" / "adversarial" / "bad0" / "NOTE.md", "two\nlines\n"),
            "solutions/adversarial/bad0/NOTE.md",
            "",
            "exactly one line",
        ),
        (lambda d: write(d / "tests" / "test_app.py", "def test_x(:\n"), "tests/test_app.py", "line 1", "syntax"),
        (lambda d: write(d / "tests" / "test_app.py", "def helper():\n    pass\n"), "tests", "", "no test functions"),
        (
            lambda d: write(
                d / "tests" / "test_more.py", "import pytest\n\n@pytest.mark.fail_to_pass\ndef test_a():\n    pass\n"
            ),
            "tests/test_more.py",
            "test_a",
            "app task tests are all required",
        ),
    ],
)
def test_file_problems_name_file_and_field(app_task, change, file, field, message):
    change(app_task)
    lines = problems_of(app_task, strict=True)  # as `genxr check` loads (the adversarial count is its rule)
    assert len(lines) == 1, lines
    assert lines[0].startswith(str(app_task / file) + ": ")
    if field:
        assert f": {field}: " in lines[0]
    assert message in lines[0]


def test_cross_field_problems(tmp_path):
    cases = {
        "id-mismatch": (APP_TOML.replace('id = "{id}"', 'id = "other"'), "id", "must equal the task directory"),
        "both-ws": (
            APP_TOML.replace('template = "basic"', 'template = "basic"\ndir = "ws"'),
            "workspace",
            "exactly one",
        ),
        "no-ws": (APP_TOML.replace('[workspace]\ntemplate = "basic"\n', ""), "workspace", "need a [workspace]"),
        "bad-template": (APP_TOML.replace('"basic"', '"nope"'), "workspace.template", "unknown template 'nope'"),
        "app-with-sdk": (APP_TOML + '\n[sdk]\nsetup = "setup.py"\n', "sdk", "must not have an [sdk]"),
        "dupes": (APP_TOML.replace('"interaction", "ui"', '"ui", "ui"'), "capabilities", "duplicate values: ui"),
        "dir-missing": (APP_TOML.replace('template = "basic"', 'dir = "workspace"'), "workspace.dir", "does not exist"),
    }
    for name, (toml, field, message) in cases.items():
        d = make_app_task(tmp_path, name, toml=toml)
        lines = problems_of(d)
        assert any(f"{d / 'task.toml'}: {field}: " in ln and message in ln for ln in lines), (name, lines)


SDK_TOML = """\
id = "{id}"
type = "sdk-repair"
difficulty = "medium"
capabilities = ["hands"]
scenes = ["empty", "office"]
[sdk]
{sdk}
"""


def make_sdk_task(tmp_path, sdk: str, tests: str, task_id: str = "sdk-task"):
    d = tmp_path / task_id
    write(d / "task.toml", SDK_TOML.format(id=task_id, sdk=sdk))
    write(d / "instruction.md", "Hands report the wrong joint count. Fix it.\n")
    write(d / "tests" / "test_sdk.py", tests)
    write(d / "solutions" / "valid" / "fix" / "fix.patch", "--- a/x\n+++ b/x\n")
    for i in range(2):
        write(d / "solutions" / "adversarial" / f"a{i}" / "a.patch", "--- a/x\n+++ b/x\n")
        write(d / "solutions" / "adversarial" / f"a{i}" / "solution.toml", f'note = "wrong in way {i}"\n')
    return d


MARKED_TESTS = """\
import pytest

pytestmark = pytest.mark.pass_to_pass


@pytest.mark.fail_to_pass
class TestFixed:
    def test_count(self):
        pass


def test_still_two_hands():
    pass
"""


def test_sdk_task_loads_with_marks(tmp_path):
    tests = MARKED_TESTS.replace("pytestmark = pytest.mark.pass_to_pass\n", "")
    tests = tests.replace("def test_still_two_hands", "@pytest.mark.pass_to_pass\ndef test_still_two_hands")
    edits = '[[sdk.edits]]\nfile = "constants.ts"\nfind = "= 25;"\nreplace = "= 24;"\n'
    task = load_task(make_sdk_task(tmp_path, edits, tests))
    assert {t.id: t.kind for t in task.tests} == {
        "tests/test_sdk.py::TestFixed::test_count": TestKind.FAIL_TO_PASS,
        "tests/test_sdk.py::test_still_two_hands": TestKind.PASS_TO_PASS,
    }
    assert task.type.is_sdk and task.spec.sdk is not None and task.spec.sdk.edits[0].count == 1
    assert all(s.patch is not None for s in task.solutions)
    assert {s.note for s in task.adversarial_solutions} == {"wrong in way 0", "wrong in way 1"}


def test_sdk_task_problems(tmp_path):
    edits = '[[sdk.edits]]\nfile = "constants.ts"\nfind = "= 25;"\nreplace = "= 24;"\n'
    d = make_sdk_task(tmp_path, edits, MARKED_TESTS, "both-marks")
    lines = problems_of(d)
    assert f"{d}/tests/test_sdk.py: line 8: TestFixed::test_count: marked both fail_to_pass and pass_to_pass" in lines

    d = make_sdk_task(tmp_path, edits, "def test_a():\n    pass\n", "unmarked")
    lines = problems_of(d)
    assert any("test_sdk.py: line 1: test_a: SDK task tests need @pytest.mark.fail_to_pass" in ln for ln in lines)

    only_p2p = "import pytest\n\n\n@pytest.mark.pass_to_pass\ndef test_a():\n    pass\n"
    (line,) = problems_of(make_sdk_task(tmp_path, edits, only_p2p, "no-f2p"))
    assert "at least one fail_to_pass test" in line

    f2p = "import pytest\n\n\n@pytest.mark.fail_to_pass\ndef test_a():\n    pass\n"
    bad_sdk = {
        "empty-sdk": ('version = "0.21.1"', "sdk: ", "set `setup`"),
        "old-version": ('version = "0.17.0"\nsetup = "setup.py"', "sdk.version: ", "not 0.17.0"),
        "no-setup-file": ('setup = "setup.py"', "sdk.setup: ", "does not exist"),
        "find-no-replace": ('[[sdk.edits]]\nfile = "a.ts"\nfind = "x"', "sdk.edits[0]: ", "needs `replace`"),
        "escape": ('[[sdk.edits]]\nfile = "../a.ts"\nfind = "x"\nreplace = "y"', "sdk.edits[0].file: ", "inside"),
        "delete-and-find": ('[[sdk.edits]]\nfile = "a.ts"\nfind = "x"\ndelete = true', "sdk.edits[0]: ", "takes no"),
        "bad-count": (
            '[[sdk.edits]]\nfile = "a.ts"\nfind = "x"\nreplace = "y"\ncount = 0',
            "sdk.edits[0].count: ",
            "greater than or equal to 1",
        ),
        "undeclared-subsystem": (
            'subsystems = ["ui"]\n[[sdk.edits]]\nfile = "input/Input.ts"\nfind = "x"\nreplace = "y"',
            "sdk.subsystems: ",
            "the edits change input/, which is not declared",
        ),
        "unknown-subsystem": ('subsystems = ["hands"]\nsetup = "s.py"', "sdk.subsystems[0]: ", "Input should be"),
    }
    for name, (sdk, field, message) in bad_sdk.items():
        lines = problems_of(make_sdk_task(tmp_path, sdk, f2p, name))
        assert any(field in ln and message in ln for ln in lines), (name, lines)

    # `genxr check` (strict) also wants the subsystems named; a run does not depend on them.
    d = make_sdk_task(tmp_path, 'setup = "s.py"', f2p, "no-subsystems")
    write(d / "s.py", "")
    assert load_task(d).spec.sdk.subsystems == []
    with pytest.raises(ValidationError, match=r"sdk.subsystems: name the XR Blocks subsystems"):
        load_task(d, strict=True)

    d = tmp_path / "missing-sdk"
    make_sdk_task(tmp_path, "", f2p, "missing-sdk")
    write(d / "task.toml", SDK_TOML.format(id="missing-sdk", sdk="").replace("[sdk]\n", ""))
    assert any("sdk: sdk-repair tasks need an [sdk] section" in ln for ln in problems_of(d))


def test_declared_tests_cover_classes_params_and_async(tmp_path):
    write(
        tmp_path / "tests" / "sub" / "test_more.py",
        "import pytest\n\n\n@pytest.mark.parametrize('x', [1, 2])\ndef test_p(x):\n    pass\n\n\n"
        "async def test_async():\n    pass\n\n\nclass TestGroup:\n    def test_m(self):\n        pass\n\n"
        "    def helper(self):\n        pass\n\n\ndef helper():\n    pass\n",
    )
    write(tmp_path / "tests" / "helpers.py", "def test_not_collected():\n    pass\n")
    found, problems = declared_tests(tmp_path, TaskType.APP)
    assert problems == []
    assert [t.id for t in found] == [
        "tests/sub/test_more.py::test_p",
        "tests/sub/test_more.py::test_async",
        "tests/sub/test_more.py::TestGroup::test_m",
    ]


def test_load_tasks_reports_every_task(tmp_path):
    root = tmp_path / "suite"
    make_app_task(root, "good")
    make_app_task(root, "bad-one", toml=APP_TOML.replace('"easy"', '"trivial"'))
    make_app_task(root, "bad-two", instruction="No tag here.\n")
    with pytest.raises(ValidationError) as e:
        load_tasks(root)
    files = {p.file for p in e.value.problems}
    assert files == {str(root / "bad-one" / "task.toml"), str(root / "bad-two" / "instruction.md")}

    with pytest.raises(ValidationError, match="no tasks found"):
        load_tasks(tmp_path / "suite" / "good" / "tests")
    with pytest.raises(ValidationError, match="tasks directory not found"):
        load_tasks(tmp_path / "nowhere")


def test_find_task_by_id_or_dir(app_task):
    assert find_task("red-button", app_task.parent).id == "red-button"
    assert find_task(str(app_task)).id == "red-button"
    with pytest.raises(ValidationError, match=r"known: red-button"):
        find_task("nope", app_task.parent)


def test_committed_schema_is_current():
    # Regenerate with `python -m xrbench.cli.genxr_cmd schema --out src/xrbench/data/genxr/task.schema.json`.
    assert json.loads(SCHEMA_FILE.read_text()) == task_json_schema()
    schema = task_json_schema()
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"id", "type", "difficulty", "capabilities", "scenes"}


def test_failure_categories_are_read_statically(tmp_path):
    tests = {
        "test_app.py": (
            "import pytest\n\n\n"
            '@pytest.mark.failure_category("hand-asymmetry", "reach-ergonomics")\n'
            "def test_a(workspace_dir):\n    pass\n\n\n"
            "def test_b(workspace_dir):\n    pass\n"
        )
    }
    task = load_task(make_app_task(tmp_path, tests=tests))
    assert [(t.id.split("::")[1], t.categories) for t in task.tests] == [
        ("test_a", ("hand-asymmetry", "reach-ergonomics")),
        ("test_b", ()),
    ]
    bad = {"test_app.py": '@pytest.mark.failure_category("vibes")\ndef test_a(workspace_dir):\n    pass\n'}
    with pytest.raises(ValidationError) as e:
        load_task(make_app_task(tmp_path / "bad", tests=bad))
    assert "failure_category 'vibes': use startup-race" in str(e.value)


@pytest.mark.parametrize(
    "source",
    [
        "import pytest\n\n\n@pytest.mark.xr_backend('iwer')\ndef test_x(xr):\n    pass\n",
        "from xrbench.xrtest.iwer import IWERSession\n\n\ndef test_x(workspace_dir):\n    IWERSession(workspace_dir)\n",
    ],
)
def test_tests_on_the_iwer_backend_cannot_grade_candidates(tmp_path, source):
    d = make_app_task(tmp_path, tests={"test_app.py": source})
    lines = [p for p in problems_of(d) if "IWER" in p]
    assert lines and all("test_app.py: line" in line and "forgery" in line for line in lines)
