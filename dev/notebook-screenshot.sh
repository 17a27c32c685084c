#!/usr/bin/env bash
# Remakes docs/notebook.png, the README's picture of a notebook: installs the polygpu kernelspecs into a
# temporary prefix, executes samples-python/getting_started.ipynb with nbconvert, converts it to HTML with the
# template in dev/notebook-screenshot (which keeps the SVG outputs) and screenshots it with headless Chromium.
# Needs: jupyter-nbconvert, python3-nbclient, jupyter-client, chromium (Debian packages).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$here/polygpu" notebook install --prefix "$work/prefix" >/dev/null
export JUPYTER_PATH="$work/prefix/share/jupyter" JUPYTER_DATA_DIR="$work/data" JUPYTER_RUNTIME_DIR="$work/runtime" \
  JUPYTER_CONFIG_DIR="$work/config" IPYTHONDIR="$work/ipython" PYDEVD_DISABLE_FILE_VALIDATION=1
cp "$here/samples-python/getting_started.ipynb" "$work/"
cd "$work"
jupyter nbconvert --to notebook --execute --output executed.ipynb getting_started.ipynb
jupyter nbconvert --to html --TemplateExporter.extra_template_basedirs="$here/dev/notebook-screenshot" \
  --template polygpu-lab --output notebook.html executed.ipynb
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,"${HEIGHT:-2860}" \
  --screenshot="$here/docs/notebook.png" "$work/notebook.html"
echo "wrote $here/docs/notebook.png"
