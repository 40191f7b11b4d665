"""Pieces shared by the toolkit's bubblewrap sandboxes (agents: `genxr.sandbox`; browsers: `xrtest.sandbox`).

A sandbox built from these sees an ALLOWLIST of the host: the system directories tools need
(`/usr` and the `/bin`, `/sbin`, `/lib*` links of a merged-/usr system, a few files of `/etc`),
a synthetic `/etc/passwd` and `/etc/group`, and then only the folders its caller binds. Nothing
else of the host exists in there: no home folders, no `/root`, no `/work`, no other checkout.

`layered_mounts` orders a caller's binds and hidden folders so that a deeper path always wins
(a folder bound under /tmp appears although /tmp itself is a private tmpfs; an empty tmpfs over
a tasks folder inside a bound package hides it), and creates the folders leading to each mount
point world-traversable (bubblewrap would create them owner-only, which an unprivileged sandbox
user could not cross).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

# Top-level links or folders of a merged-/usr system; mirrored as they are on the host.
ROOT_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# Read-only files and folders outside /usr that ordinary tools read (none holds a secret).
SYSTEM_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",  # targets of /usr/bin links (node, editors, ...)
    "/etc/localtime",
    "/etc/fonts",
    "/var/cache/fontconfig",
    "/etc/ssl/certs",  # CA certificates only (never /etc/ssl/private)
    "/etc/ssl/openssl.cnf",
    "/etc/ca-certificates",
    "/etc/nsswitch.conf",
    "/etc/mime.types",
    "/etc/chromium",  # Debian's Chromium launcher settings (`xrbench xr open` inside a sandbox)
    "/etc/chromium.d",
)
# Name resolution of the host: only for a sandbox that has the host's network.
NETWORK_FILES = ("/etc/resolv.conf", "/etc/hosts", "/etc/host.conf", "/etc/gai.conf")
HOSTS_OFFLINE = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"


def running_as_root() -> bool:
    """Whether this process has uid 0."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def find_tool(name: str) -> str | None:
    """An executable by name (PATH, then /usr/bin and /usr/sbin), or None."""
    return shutil.which(name) or shutil.which(name, path="/usr/bin:/usr/sbin:/bin:/sbin")


def passwd_text(uid: int, gid: int, home: str = "/tmp/home") -> str:
    """A synthetic /etc/passwd: root, nobody and the sandbox user (tools look their user up)."""
    lines = {0: "root:x:0:0:root:/nonexistent:/usr/sbin/nologin", 65534: f"nobody:x:65534:65534:nobody:{home}:/bin/sh"}
    lines.setdefault(uid, f"sandbox:x:{uid}:{gid}:sandbox:{home}:/bin/sh")
    return "".join(line + "\n" for line in lines.values())


def group_text(gid: int) -> str:
    """A synthetic /etc/group matching `passwd_text`."""
    lines = {0: "root:x:0:", 65534: "nogroup:x:65534:"}
    lines.setdefault(gid, f"sandbox:x:{gid}:")
    return "".join(line + "\n" for line in lines.values())


def drop_privileges(uid: int, gid: int, setpriv: str) -> list[str]:
    """`setpriv` arguments that switch to `uid`/`gid` for good: no groups, capabilities or new privileges."""
    return [
        setpriv,
        f"--reuid={uid}",
        f"--regid={gid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
    ]


def system_mounts(*, network: bool, etc_dir: Path) -> list[str]:
    """bubblewrap arguments for the system part of the allowlist.

    `etc_dir` holds the synthetic `passwd`, `group` and `hosts` (see `write_etc`); the host's
    name resolution files replace the synthetic hosts only when `network` is on.
    """
    cmd = ["--ro-bind", "/usr", "/usr"]
    # The folders above the bound files, made world-readable first: bubblewrap itself makes them
    # owner-only when run as root, and the agent user could then not read /etc/ssl/openssl.cnf
    # (Node, and so Playwright's driver, refuses to start without it).
    files = [*SYSTEM_FILES, *NETWORK_FILES, "/etc/passwd", "/etc/group"]
    for folder in sorted({parent for f in files for parent in Path(f).parents if parent != Path("/")}):
        cmd += ["--perms", "0755", "--dir", str(folder)]
    for name in ROOT_LINKS:
        path = Path("/") / name
        if path.is_symlink():
            cmd += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            cmd += ["--ro-bind", str(path), str(path)]
    for path in SYSTEM_FILES:
        cmd += ["--ro-bind-try", path, path]
    cmd += ["--ro-bind", str(etc_dir / "passwd"), "/etc/passwd", "--ro-bind", str(etc_dir / "group"), "/etc/group"]
    if network:
        for path in NETWORK_FILES:
            cmd += ["--ro-bind-try", path, path]
    else:
        cmd += ["--ro-bind", str(etc_dir / "hosts"), "/etc/hosts"]
    return cmd


def write_etc(folder: Path, uid: int, gid: int) -> Path:
    """Write the synthetic passwd, group and hosts into `folder` (world-readable); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    for name, text in (("passwd", passwd_text(uid, gid)), ("group", group_text(gid)), ("hosts", HOSTS_OFFLINE)):
        path = folder / name
        path.write_text(text, encoding="utf-8")
        path.chmod(0o644)
    return folder


def _under(path: Path, base: Path) -> bool:
    return path == base or base in path.parents


def layered_mounts(
    binds: Iterable[tuple[Path, bool]], hidden: Iterable[Path], *, existing: Sequence[Path] = ()
) -> list[str]:
    """bubblewrap arguments for `binds` ((path, writable), bound at the same path) and `hidden`.

    Shallower paths are mounted first, so a deeper one always shows through (a bound folder
    inside a private /tmp, a readable file inside a hidden folder); at equal depth a hidden
    folder wins over a bind. A hidden folder is covered by an empty tmpfs only where something
    bound would show it. Folders leading to a mount point that lie outside every bind are created
    mode 0755 (`existing`: mount points made before, e.g. /tmp, which need no folder).
    """
    entries: list[tuple[int, int, Path, str]] = []
    bound = [(Path(p), bool(w)) for p, w in binds]
    for path, writable in bound:
        entries.append((len(path.parts), 0, path, "--bind" if writable else "--ro-bind"))
    for path in hidden:
        path = Path(path)
        if any(_under(path, b) for b, _ in bound):
            entries.append((len(path.parts), 1, path, "--tmpfs"))
    entries.sort(key=lambda e: (e[0], e[1], str(e[2])))
    cmd: list[str] = []
    made: set[Path] = {Path("/"), *map(Path, existing)}
    host_binds: list[Path] = []
    seen: set[tuple[Path, str]] = set()
    for _, _, path, op in entries:
        if (path, op) in seen:
            continue
        seen.add((path, op))
        for parent in reversed(path.parents):
            if parent in made or any(_under(parent, b) for b in host_binds):
                continue
            cmd += ["--perms", "0755", "--dir", str(parent)]
            made.add(parent)
        if op == "--tmpfs":
            cmd += ["--tmpfs", str(path)]
        else:
            cmd += [op, str(path), str(path)]
            host_binds.append(path)
        made.add(path)
    return cmd
