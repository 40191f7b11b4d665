"""The starting SDK is the pinned XR Blocks 0.21.1 exactly as published: this script changes nothing.

The regression this task is about is real in the release (no edit injects it): a gaze controller
turned on from a Script's init() is sampled on the next frame before it has its camera, and one
turned on before xb.init() is never connected. The format asks an SDK task for `setup` or
`edits`; this script only checks that the sources handed to the agent still have the published
code the task describes, and fails loudly if the pinned package ever changes.
"""

import sys
from pathlib import Path

src = Path(sys.argv[1])
checks = {
    "input/Input.ts": (
        "  enableGazeController() {\n"
        "    this.activeControllers.add(this.gazeController);\n"
        "    this.gazeController.connect();\n"
        "  }\n"
    ),
    "input/GazeController.ts": (
        "  updatePose() {\n"
        "    this.position.copy(this.camera.position);\n"
        "    this.quaternion.copy(this.camera.quaternion);\n"
    ),
}
for rel, text in checks.items():
    if text not in (src / rel).read_text(encoding="utf-8"):
        sys.exit(f"{rel}: the published code this task describes is not there; the pinned SDK changed")
