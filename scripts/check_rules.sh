#!/usr/bin/env bash
# Holds the graph's rules with ids (rendergraph/src/base/rules.h) to their
# checks and their mutations: every rule in the list is checked somewhere
# (RG__RULE(ID, ...) in rendergraph/src) and named by a `rule | ID | ...`
# line of scripts/mutations.txt (so a test must notice it broken), and
# every such line names a rule in the list.
#
#   check_rules.sh [ROOT]      (default: the checkout this script is in)
#
# Exit 1 naming each rule that breaks this, 2 on a usage error.
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
list=$root/rendergraph/src/base/rules.h
muts=$root/scripts/mutations.txt
[ -f "$list" ] && [ -f "$muts" ] || { echo "check_rules: no rules.h or mutations.txt under $root" >&2; exit 2; }
ids=$(grep -oE '^[[:space:]]*X\([A-Z0-9_]+,' "$list" | sed -E 's/^[[:space:]]*X\(([A-Z0-9_]+),/\1/')
[ -n "$ids" ] || { echo "check_rules: no rule in $list" >&2; exit 2; }
bad=0
for id in $ids; do
  if ! grep -rqF "RG__RULE($id," "$root/rendergraph/src" --include='*.c' --include='*.h'; then
    echo "check_rules: rule $id is checked nowhere (RG__RULE($id, ...))"; bad=1
  fi
  if ! grep -qE "^rule [|] $id [|]" "$muts"; then
    echo "check_rules: rule $id has no mutation line (rule | $id | broken | program | filter)"; bad=1
  fi
done
while read -r id; do
  printf '%s\n' "$ids" | grep -qx "$id" || { echo "check_rules: mutations.txt names rule $id, which rules.h does not list"; bad=1; }
done < <(grep -E '^rule [|] ' "$muts" | awk -F ' [|] ' '{ print $2 }')
[ $bad -eq 0 ] && echo "check_rules: $(printf '%s\n' "$ids" | wc -l) rules, each checked and pinned by a mutation"
exit $bad
