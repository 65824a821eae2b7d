"""Build the JupyterLite site: the lessons in JupyterLab with the Pyodide kernel, no server.

    lite/build.sh                 # = python3 lite/build_site.py; the site lands in lite/_output

Steps (each prints one line):

1. fetch, cached, only what is missing: the kernel-side wheels pinned with their hashes in
   lite/kernel-wheels.txt (pip, from PyPI, into lite/.cache/kernel-wheels) and the
   ``pyodide`` npm package of the version the kernel runs (npm, into lite/.node), for its
   ``pyodide-lock.json``;
2. export the commit (``git archive HEAD``): the wheel and the lessons are made from what is
   committed only, never from the working tree (a student's save files, edited notebooks);
   build our wheel from the exported package (``pip wheel --no-deps``);
3. stage the lessons: the exported notebooks/ whose kernelspecs name the Pyodide kernel;
4. ``jupyter lite build`` with every proxy pointed at a closed port: the build itself
   downloads nothing (the site is made from the pinned, installed packages);
5. write the site's Pyodide lockfile: Pyodide's own entries, plus ours (energies,
   ipywidgets, comm, anywidget, psygnal) pointing at the wheels in the site's package index,
   so that the first ``import energies`` of a lesson loads energies and everything the lessons
   use (anywidget for the PlayApp's page, whose labextension step 4 puts in the site).

At run time the kernel still fetches Pyodide itself and numpy, pandas, matplotlib, networkx,
traitlets, typing-extensions from Pyodide's CDN, unless the site was built with a full Pyodide distribution
(``PYODIDE=/path/to/pyodide-<version>.tar.bz2 lite/build.sh``), which it then serves itself.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

LITE = Path(__file__).resolve().parent
REPO = LITE.parent
OUTPUT = LITE / "_output"
CACHE = LITE / ".cache"
NODE = LITE / ".node"
KERNEL_WHEELS = LITE / "kernel-wheels.txt"

#: the labextensions the site needs (nothing else from this Python's environment is copied)
EXTENSIONS = (
    "@jupyterlite/pyodide-kernel-extension",
    "@jupyter-widgets/jupyterlab-manager",
    "anywidget",  # the PlayApp's page (lesson 02)
)
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
#: where the site's lockfile lives (relative file names in it are relative to this folder)
LOCK_DIR = Path("static") / "pyodide-lock"
#: what `import energies` loads in the browser: the core needs none of these; the lessons'
#: charts, frames, graph and widgets do (jupyterlab, the server, has no place in a browser)
LESSON_PACKAGES = ("numpy", "pandas", "networkx", "matplotlib", "tqdm", "ipywidgets", "anywidget")
#: the dependencies our extra lock entries declare (all present in the lock)
LOCK_DEPENDS = {
    "energies": LESSON_PACKAGES,
    "ipywidgets": ("comm", "traitlets", "ipython"),  # the kernel loads IPython anyway
    "comm": (),
    "anywidget": ("ipywidgets", "psygnal", "typing-extensions"),
    "psygnal": (),
}
#: a closed port: proxies pointed here make any download of the build fail loudly
NO_NETWORK = "http://127.0.0.1:9"


def say(message: str) -> None:
    print(f"[lite] {message}", flush=True)


def run(cmd: list[str], **kwargs) -> None:
    subprocess.run(cmd, check=True, **kwargs)


def pyodide_version() -> str:
    """The Pyodide version the pinned jupyterlite-pyodide-kernel runs."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    return PYODIDE_VERSION


def pyodide_python() -> str:
    """The Python version ("3.14") of the Pyodide the pinned kernel runs."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_PYTHON_VERSION

    return PYODIDE_PYTHON_VERSION


# -- 1. fetch (cached) -------------------------------------------------------------------------


def kernel_wheel_pins() -> dict[str, tuple[str, str]]:
    """name -> (version, sha256) from lite/kernel-wheels.txt."""
    pins = {}
    pattern = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})\s*$")
    for line in KERNEL_WHEELS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            match = pattern.match(line)
            if not match:
                raise SystemExit(f"{KERNEL_WHEELS}: cannot read the pin {line!r}")
            pins[match[1]] = (match[2], match[3])
    return pins


def fetch_kernel_wheels() -> list[Path]:
    """The pinned kernel-side wheels, downloaded once into lite/.cache/kernel-wheels."""
    folder = CACHE / "kernel-wheels"
    wheels, missing = [], False
    for name, (version, digest) in kernel_wheel_pins().items():
        path = folder / f"{name}-{version}-py3-none-any.whl"
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            missing = True
        wheels.append(path)
    if missing:
        say(f"fetching the pinned kernel wheels into {folder.relative_to(REPO)}")
        run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:"]
            + ["--platform", "any", "--python-version", pyodide_python()]  # pure wheels only
            + ["--require-hashes", "-r", str(KERNEL_WHEELS), "-d", str(folder)]
        )
    return wheels


def fetch_pyodide(version: str) -> Path:
    """The ``pyodide`` npm package (core distribution) of ``version``, installed once."""
    package = NODE / "node_modules" / "pyodide"
    manifest = package / "package.json"
    if not (manifest.is_file() and json.loads(manifest.read_text())["version"] == version):
        if not shutil.which("npm"):
            raise SystemExit("npm is needed once to fetch Pyodide's lockfile: install nodejs/npm")
        say(f"installing pyodide@{version} from npm into {NODE.relative_to(REPO)}")
        NODE.mkdir(parents=True, exist_ok=True)
        run(
            ["npm", "install", "--prefix", str(NODE), "--no-audit", "--no-fund", "--silent"]
            + ["--no-save", f"pyodide@{version}"]
        )
    return package


# -- 2. our wheel ------------------------------------------------------------------------------


def export_committed(dest: Path, repo: Path = REPO, ref: str = "HEAD") -> str:
    """The files of commit ``ref`` (``git archive``) extracted into ``dest``: only what is
    committed is published, never an untracked file or an uncommitted edit. Returns the
    commit's full hash. (docs/build_course_site.py exports the course site with it too.)"""
    if shutil.which("git") is None:
        raise SystemExit("git is needed: the lite site is built from the committed files")
    found = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:
        raise SystemExit(f"{ref!r} is not a commit of the git repository at {repo}")
    commit = found.stdout.strip()
    dest.mkdir(parents=True, exist_ok=True)
    archive_cmd = ["git", "-C", str(repo), "archive", "--format=tar", commit]
    with (
        subprocess.Popen(archive_cmd, stdout=subprocess.PIPE) as proc,
        tarfile.open(fileobj=proc.stdout, mode="r|") as archive,
    ):
        if hasattr(tarfile, "data_filter"):  # refuses links out of dest and odd modes
            archive.extractall(dest, filter="data")
        else:  # Python 3.10 before 3.10.12: git archive of a commit holds plain files
            archive.extractall(dest)
    if proc.returncode != 0:
        raise SystemExit(f"git archive {ref} failed (exit status {proc.returncode})")
    return commit


def build_wheel(dest: Path, source: Path = REPO) -> Path:
    """Our wheel, built from a clean copy of ``source``'s package (a stale build/ folder can
    never leak into it)."""
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("energies-*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory(prefix="energies-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            shutil.copy2(source / name, src / name)
        shutil.copytree(
            source / "energies", src / "energies", ignore=shutil.ignore_patterns("__pycache__")
        )
        run(
            [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dest), str(src)],
            stdout=subprocess.DEVNULL,
        )
    (wheel,) = dest.glob("energies-*.whl")
    return wheel


# -- 3. lessons --------------------------------------------------------------------------------


#: never copied into the site: editor and interpreter leftovers
SKIPPED = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "*.pyc", ".*")


def stage_lessons(dest: Path, source: Path) -> list[str]:
    """Copy ``source``'s notebooks/ (with its data folders; ``source`` is an export of the
    commit) to ``dest``, each notebook's kernelspec naming the Pyodide kernel (so JupyterLite
    opens it without asking which kernel). Returns the lessons' file names."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(source / "notebooks", dest, ignore=SKIPPED)
    for path in sorted(dest.rglob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        notebook.setdefault("metadata", {})["kernelspec"] = dict(PYODIDE_KERNELSPEC)
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return sorted(p.name for p in dest.glob("*.ipynb"))


# -- 4. jupyter lite build ---------------------------------------------------------------------


def extension_folders() -> list[Path]:
    """The installed folders of EXTENSIONS (from jupyterlite-pyodide-kernel, jupyterlab_widgets)."""
    from jupyter_core.paths import jupyter_path

    found = []
    for name in EXTENSIONS:
        folders = [Path(p) / name for p in jupyter_path("labextensions")]
        folder = next((f for f in folders if (f / "package.json").is_file()), None)
        if folder is None:
            raise SystemExit(
                f"the labextension {name} is not installed: pip install -r lite/requirements.txt"
            )
        found.append(folder)
    return found


def offline_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("no_proxy", "all_proxy")}
    for key in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        env[key] = NO_NETWORK
    return env


def jupyter_lite_build(output: Path, contents: Path, wheels: list[Path], pyodide: str | None):
    cmd = [sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", str(LITE)]
    cmd += ["--output-dir", str(output), "--contents", str(contents)]
    for folder in extension_folders():
        cmd.append(f"--LiteBuildConfig.federated_extensions={folder}")
    for wheel in wheels:
        cmd.append(f"--piplite-wheels={wheel}")
    if pyodide:
        cmd.append(f"--pyodide={pyodide}")
    shutil.rmtree(output, ignore_errors=True)
    for state in LITE.glob(".jupyterlite.doit.db*"):  # doit's record of the previous build
        state.unlink()
    run(cmd, cwd=LITE, env=offline_env(), stdout=subprocess.DEVNULL)


# -- 5. the site's Pyodide lockfile ------------------------------------------------------------


def _lock_entry(wheel: Path, depends: tuple[str, ...], lock_dir: Path, output: Path) -> dict:
    name, version = wheel.name.split("-")[:2]
    return {
        "name": name,
        "version": version,
        "file_name": os.path.relpath(wheel, lock_dir).replace(os.sep, "/"),
        "install_dir": "site",
        "package_type": "package",
        "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "imports": [name],
        "depends": list(depends),
        "unvendored_tests": False,
    }


def write_lock(output: Path, base_lock: Path, version: str) -> Path:
    """Pyodide's lockfile with absolute URLs (or the site's own copies of a full
    distribution), plus entries for the wheels in the site's package index."""
    lock = json.loads(base_lock.read_text())
    lock_dir = output / LOCK_DIR
    local = output / "static" / "pyodide"
    cdn = f"https://cdn.jsdelivr.net/pyodide/v{version}/full/"
    for package in lock["packages"].values():
        file_name = package["file_name"]
        if "://" in file_name:
            continue
        if (local / file_name).is_file():
            package["file_name"] = os.path.relpath(local / file_name, lock_dir)
        else:
            package["file_name"] = cdn + file_name
    index = output / "pypi"
    for name, depends in LOCK_DEPENDS.items():
        (wheel,) = index.glob(f"{name}-*.whl")
        lock["packages"][name] = _lock_entry(wheel, depends, lock_dir, output)
    missing = {
        (name, dep)
        for name in LOCK_DEPENDS
        for dep in lock["packages"][name]["depends"]
        if dep not in lock["packages"]
    }
    if missing:
        raise SystemExit(f"dependencies missing from Pyodide's lockfile: {sorted(missing)}")
    lock_dir.mkdir(parents=True, exist_ok=True)
    path = lock_dir / "pyodide-lock.json"
    path.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")

    config_path = output / "jupyter-lite.json"
    config = json.loads(config_path.read_text())
    plugins = config["jupyter-config-data"].setdefault("litePluginSettings", {})
    options = plugins.setdefault(KERNEL_PLUGIN, {}).setdefault("loadPyodideOptions", {})
    options["lockFileURL"] = f"./{LOCK_DIR.as_posix()}/pyodide-lock.json"
    config_path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    return path


# -- all of it ---------------------------------------------------------------------------------


def build(output: Path = OUTPUT, pyodide: str | None = None, source: Path | None = None) -> Path:
    """Build the site into ``output`` from ``source``, an export of a commit (by default this
    repository's HEAD, exported here)."""
    started = time.monotonic()
    version = pyodide_version()
    kernel_wheels = fetch_kernel_wheels()
    base = fetch_pyodide(version) / "pyodide-lock.json"
    staging = CACHE / "staging"
    if source is None:
        source = staging / "committed"
        shutil.rmtree(source, ignore_errors=True)
        export_committed(source)
        say("exported HEAD: the site holds committed files only")
    wheel = build_wheel(staging / "wheels", source)
    say(f"built {wheel.name}")
    lessons = stage_lessons(staging / "contents", source)
    say(f"staged {len(lessons)} lessons")
    jupyter_lite_build(output, staging / "contents", [wheel, *kernel_wheels], pyodide)
    local_lock = output / "static" / "pyodide" / "pyodide-lock.json"
    lock = write_lock(output, local_lock if local_lock.is_file() else base, version)
    say(f"wrote {lock.relative_to(output)} (Pyodide {version})")
    say(f"site ready in {output} after {time.monotonic() - started:.0f} s")
    return output


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="site folder (lite/_output)")
    parser.add_argument(
        "--pyodide",
        default=os.environ.get("PYODIDE"),
        help="a full Pyodide distribution (tarball or folder) to serve from the site itself",
    )
    parser.add_argument(
        "--repo", type=Path, default=REPO, help="the git repository whose HEAD is published"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="energies-lite-") as tmp:
        source = Path(tmp) / "committed"
        export_committed(source, args.repo.resolve())
        say(f"exported HEAD of {args.repo}: the site holds committed files only")
        build(args.output.resolve(), args.pyodide, source)


if __name__ == "__main__":
    main()
