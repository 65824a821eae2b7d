#!/usr/bin/env bash
# Build the JupyterLite site (the lessons in the browser, no server) into lite/_output.
#   python3 -m pip install -r lite/requirements.txt   # once: the pinned build tools
#   lite/build.sh                                     # then serve lite/_output as static files
# Options: --output DIR; --pyodide FILE (or PYODIDE=FILE) to self-host a full Pyodide.
# The steps are described in lite/build_site.py.
set -euo pipefail
exec "${PYTHON:-python3}" "$(dirname "$0")/build_site.py" "$@"
