// Play seeded games with our wheel under real Pyodide in Node; print one JSON line.
//
//   node lite/pyodide_games.mjs <pyodide dir> <energies wheel> <seed>...
//   node lite/pyodide_games.mjs [--stand-ins DIR] <pyodide dir> <site>/static/pyodide-lock/pyodide-lock.json <seed>...
//
// <pyodide dir> is the `pyodide` npm package (its core distribution: the interpreter and the
// standard library, no numpy or pandas). A wheel is unpacked straight into site-packages (no
// micropip, no network). A JupyterLite site's lockfile is used as the kernel uses it: our
// entries' files resolved from the lockfile's folder, sha256 checked, `import energies` and
// `import anywidget` loading all of ours (their dependencies on Pyodide's CDN packages are
// dropped: no network here).
// lite/games_digest.py then plays the games exactly as under CPython; tests/test_lite.py
// compares the two outputs.
// --stand-ins DIR: pure-Python wheels unpacked into site-packages in place of the CDN packages
// ipywidgets needs (IPython, traitlets, ...: PyPI's files of the lockfile's versions; Pyodide's
// own copies are rebuilt, so their sha256 differ); then lesson 02's PlayApp is built as well.
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const standIns = args[0] === "--stand-ins" ? args.splice(0, 2)[1] : null;
const [pyodideDir, wheelPath, ...seeds] = args;
if (!pyodideDir || !wheelPath) {
  console.error(
    "usage: node lite/pyodide_games.mjs [--stand-ins DIR] <pyodide dir> <wheel or pyodide-lock.json> <seed>...",
  );
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")));

// the entries lite/build_site.py adds
const OURS = ["energies", "ipywidgets", "comm", "anywidget", "psygnal"];
const fromLock = wheelPath.endsWith(".json");
const options = { indexURL: resolve(pyodideDir) + "/" };
if (fromLock) {
  const lock = JSON.parse(readFileSync(wheelPath, "utf8"));
  for (const name of OURS) {
    lock.packages[name].depends = lock.packages[name].depends.filter((dep) => OURS.includes(dep));
  }
  options.lockFileContents = lock;
  options.packageBaseUrl = dirname(resolve(wheelPath)) + "/";
}
const started = performance.now();
const pyodide = await loadPyodide(options);
const loaded = performance.now();
const printed = [];
pyodide.setStdout({ batched: (line) => printed.push(line) });

let installed = [];
if (fromLock) {
  await pyodide.loadPackagesFromImports("import energies\nimport anywidget");
  installed = OURS.filter((name) => name in pyodide.loadedPackages);
} else {
  unpack(wheelPath);
}
if (standIns) {
  for (const name of readdirSync(standIns).filter((n) => n.endsWith(".whl"))) {
    unpack(join(standIns, name));
  }
}

function unpack(wheel) {
  const wheelFile = "/tmp/" + basename(wheel);
  pyodide.FS.writeFile(wheelFile, readFileSync(wheel));
  pyodide.runPython(`import site, zipfile
zipfile.ZipFile("${wheelFile}").extractall(site.getsitepackages()[0])`);
}
pyodide.FS.writeFile("/tmp/games_digest.py", readFileSync(join(here, "games_digest.py")));
pyodide.globals.set("SEEDS", pyodide.toPy(seeds));
pyodide.globals.set("PLAYAPP", Boolean(standIns));
pyodide.runPython(`
import json, sys, time
sys.path.insert(0, "/tmp")

import energies, games_digest
from energies.kit import platform as lite

start = time.perf_counter()
games = games_digest.describe([int(s) for s in SEEDS])
seconds = time.perf_counter() - start
absent = []
for name in ("numpy", "pandas", "networkx", "matplotlib"):
    try:
        __import__(name)
    except ImportError:
        absent.append(name)
print(json.dumps({
    "games": games,
    "seconds_per_game": seconds / max(len(games), 1),
    "platform": sys.platform,
    "python": sys.version.split()[0],
    "energies_file": energies.__file__,
    "absent": absent,
    "in_browser_kernel": lite.in_browser_kernel(),
    "process_pool": lite.can_start_processes(),
    "playapp": games_digest.describe_playapp() if PLAYAPP else None,
}, sort_keys=True))
`);
const result = JSON.parse(printed.at(-1));
result.pyodide_version = pyodide.version;
result.installed_from_lock = installed;
result.load_seconds = (loaded - started) / 1000;
console.log(JSON.stringify(result));
