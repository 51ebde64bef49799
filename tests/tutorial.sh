#!/usr/bin/env bash
# Runs a Markdown tutorial as written, so that it cannot rot: usage
#   tests/tutorial.sh FOH DOC.md
# in a new empty folder, top to bottom:
#   - a fenced block whose info string names a file (```yaml file=PATH) is
#     written to PATH (a later block of the same PATH replaces it, as a
#     reader editing the file would);
#   - in a ```sh block, each line "$ COMMAND" is run with bash (foh on the
#     PATH) and must exit 0, or N when the line ends in "# exits N"; the
#     lines under it, up to the next "$", must each appear in what the
#     command printed (stdout and stderr), in that order.
# Prints each command and "ok", or what differs; exit 1 on any failure.
set -uo pipefail
foh="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
doc="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$foh" "$work/bin/foh"
export PATH="$work/bin:$PATH"
cd "$work" || exit 1

failures=0 commands=0 files=0
fence="" file="" body="" cmd="" expect=()

# Run the pending command (if any) and check its exit status and output.
run_pending() {
  [ -n "$cmd" ] || return 0
  commands=$((commands + 1))
  local want=0
  if [[ "$cmd" =~ \#\ exits\ ([0-9]+)[[:space:]]*$ ]]; then want="${BASH_REMATCH[1]}"; fi
  local out rc
  out="$(bash -c "$cmd" 2>&1 </dev/null)"
  rc=$?
  local bad=""
  [ "$rc" -eq "$want" ] || bad="exit status $rc, expected $want"
  # Each expected line in order, as a substring of the output's lines.
  local lines=() i=0 line
  mapfile -t lines <<< "$out"
  for line in "${expect[@]}"; do
    [ -n "$bad" ] && break
    while [ "$i" -lt "${#lines[@]}" ] && [[ "${lines[$i]}" != *"$line"* ]]; do i=$((i + 1)); done
    if [ "$i" -ge "${#lines[@]}" ]; then bad="expected a line containing: $line"; else i=$((i + 1)); fi
  done
  if [ -n "$bad" ]; then
    failures=$((failures + 1))
    printf 'FAIL $ %s\n  %s\n  output:\n%s\n' "$cmd" "$bad" "$(printf '%s\n' "$out" | sed 's/^/    | /' | head -60)"
  else
    printf 'ok   $ %s\n' "$cmd"
  fi
  cmd="" expect=()
}

while IFS= read -r raw || [ -n "$raw" ]; do
  if [ -z "$fence" ]; then
    if [[ "$raw" =~ ^\`\`\`([a-z]*)(.*)$ ]]; then
      fence="${BASH_REMATCH[1]}"
      file=""
      [[ "${BASH_REMATCH[2]}" =~ file=([^[:space:]]+) ]] && file="${BASH_REMATCH[1]}"
      [ -n "$fence" ] || fence="text"
      body=""
    fi
    continue
  fi
  if [[ "$raw" == '```' ]]; then
    if [ -n "$file" ]; then
      mkdir -p "$(dirname "$file")"
      printf '%s' "$body" > "$file"
      files=$((files + 1))
    fi
    [ "$fence" = "sh" ] && run_pending
    fence="" file=""
    continue
  fi
  if [ -n "$file" ]; then
    body+="$raw"$'\n'
  elif [ "$fence" = "sh" ]; then
    if [[ "$raw" == '$ '* ]]; then
      run_pending
      cmd="${raw#\$ }"
    elif [ -n "$cmd" ] && [ -n "${raw// /}" ]; then
      line="${raw#"${raw%%[![:space:]]*}"}"
      expect+=("$line")
    fi
  fi
done < "$doc"

echo "tutorial: $commands commands run, $files files written, $failures failed"
[ "$commands" -gt 0 ] && [ "$failures" -eq 0 ]
