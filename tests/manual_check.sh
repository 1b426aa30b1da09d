#!/usr/bin/env bash
# The man page and the bash completion the build writes from nnref's CLI (cli/manual.hpp) against
# `nnref ... --help`: every subcommand it lists, nested ones too (nac compile, hw run), has its
# section in the man page and is offered by the completion, and so is every option of each.
# Usage: manual_check.sh NNREF MAN_PAGE BASH_COMPLETION
set -euo pipefail
nnref=$1 man=$2 completion=$3
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

subcommands_of() { "$nnref" "$@" --help | awk '/^Subcommands:/ {s = 1; next} /^[^ ]/ {s = 0} s && NF {print $1}'; }
options_of() { "$nnref" "$@" --help | grep -oE '^  (-[[:alnum:]],)?--[[:alnum:]-]+' | sed -E 's/^  (-[[:alnum:]],)?//'; }
# One command's section of the man page, its minus signs unescaped and font changes removed.
section_of() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man" | awk -v h=".SS \"nnref $*\"" '$0 == h {s = 1; next} /^\.S[SH] / {s = 0} s'; }
mentions() { grep -qE -- "(^|[^[:alnum:]-])$1([^[:alnum:]-]|\$)"; }

# shellcheck source=/dev/null
source "$completion"
complete_words() {
  COMP_WORDS=(nnref "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _nnref
  printf '%s\n' "${COMPREPLY[@]}"
}

commands=0
check() {  # check WORDS...: the command the words name, then each of its subcommands
  local subs opts section offered s o
  subs=$(subcommands_of "$@")
  opts=$(options_of "$@")
  commands=$((commands + 1))
  [ -n "$opts" ] || fail "'nnref $* --help' lists no option (has its format changed?)"
  if [ $# -gt 0 ]; then
    section=$(section_of "$@")
    [ -n "$section" ] || fail "man page: no section for 'nnref $*'"
    for o in $opts; do mentions "$o" <<<"$section" || fail "man page: the section of 'nnref $*' does not list $o"; done
  fi
  offered=$(complete_words "$@" --)
  for o in $opts; do grep -qxF -- "$o" <<<"$offered" || fail "completion: 'nnref $* --' does not offer $o"; done
  offered=$(complete_words "$@" "")
  for s in $subs; do
    grep -qxF -- "$s" <<<"$offered" || fail "completion: 'nnref $*' does not offer $s"
    check "$@" "$s"
  done
}

top=$(subcommands_of)
[ "$(wc -w <<<"$top")" -ge 5 ] || fail "'nnref --help' lists fewer than 5 subcommands: $top"
check
# The man page renders without warnings, when groff is here (save "cannot adjust line", a
# justification nit of a long list of choices).
if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -Wbreak -z "$man" 2>&1)
  [ -z "$warnings" ] || fail "groff warns: $warnings"
fi
echo "manual_check: $commands commands (nnref and its subcommands), $failures failures"
[ "$failures" -eq 0 ]
