#!/usr/bin/env bash
# README.md's first ```c block must be examples/hello.c, byte for byte (the README shows the program
# that `meson test --suite examples` builds and runs, so the README's code cannot rot).
# Usage: check_readme.sh README.md examples/hello.c
set -euo pipefail
readme=$1
example=$2
block=$(mktemp)
trap 'rm -f "$block"' EXIT
# the lines between the first line that is exactly ```c and the next line that is exactly ```
awk 'state == 0 && $0 == "```c" { state = 1; next }
     state == 1 && $0 == "```"  { exit }
     state == 1                 { print }' "$readme" > "$block"
if [ ! -s "$block" ]; then
  echo "FAILED: $readme has no \`\`\`c block" >&2
  exit 1
fi
if ! cmp -s "$block" "$example"; then
  echo "FAILED: the first \`\`\`c block of $readme differs from $example:" >&2
  diff -u "$example" "$block" >&2 || true
  exit 1
fi
echo "ok: the first C block of $readme is $example ($(wc -l < "$example") lines)"
