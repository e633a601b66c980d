#!/bin/bash
# The README's command table stays true to the declared command line: every subcommand that
# `fairyzero --help` lists has a row, and each row's first cell names exactly the options that
# `fairyzero COMMAND --help` declares. Usage: readme_commands.sh path/to/fairyzero
set -euo pipefail
bin=$1
status=0
commands=$("$bin" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }')
[[ -n "$commands" ]] || { echo "FAIL: no subcommands in fairyzero --help"; exit 1; }
for command in $commands; do
  declared=$("$bin" "$command" --help | grep -oE '^  --[a-z][a-z-]*' | sed 's/^  //' |
    grep -v '^--help$' | sort -u || true)
  rows=$(grep -E "^\| \`$command( |\`)" README.md || true)
  if [[ -z "$rows" ]]; then
    echo "FAIL: README.md has no row for '$command'"
    status=1
    continue
  fi
  documented=$(sed 's/\\|/\//g' <<<"$rows" | cut -d'|' -f2 | grep -oE -- '--[a-z][a-z-]*' | sort -u || true)
  missing=$(comm -23 <(echo "$declared") <(echo "$documented") | tr '\n' ' ')
  extra=$(comm -13 <(echo "$declared") <(echo "$documented") | tr '\n' ' ')
  if [[ -n "${missing// /}" ]]; then
    echo "FAIL: README.md's '$command' row lacks: $missing"
    status=1
  fi
  if [[ -n "${extra// /}" ]]; then
    echo "FAIL: README.md's '$command' row names options '$command' does not declare: $extra"
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "readme_commands: every row matches --help"
exit $status
