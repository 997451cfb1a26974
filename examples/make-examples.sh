#!/usr/bin/env bash
# Regenerates the files in this folder: a short A Victory Denied practice
# game between two generated players (their private keys stay in a
# temporary folder and are thrown away), the orders files used, the turn
# logs and the email made for the last exchange.  pbem names each game's
# files after its players and a part of its game id; the copies here drop
# the id part so that the names stay the same from one run to the next.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
anna="env PBEM_HOME=$work/anna pbem"
pavel="env PBEM_HOME=$work/pavel pbem"
file() { ls avd-anna-pavel-*-"$1".toml; }
$anna keygen --name Anna --email anna@example.org --no-passphrase >/dev/null
$pavel keygen --name Pavel --email pavel@example.org --no-passphrase >/dev/null
$anna new avd/practice --seat german=me --seat soviet=pavel.id.toml --dice sealed >/dev/null
$pavel join --yes "$(file 001)" >/dev/null
$anna play "$(file 002)" --orders "$here/orders-german-1.toml" >/dev/null
$pavel play "$(file 003)" --orders "$here/orders-soviet-1.toml" >/dev/null
$anna play "$(file 004)" --orders "$here/orders-german-2.toml" >/dev/null
$anna mail "$(file 005)" >/dev/null
for n in 003 004 005; do
  stem=$(basename "$(file $n)" .toml)
  cp "$stem.txt" "$here/avd-anna-pavel-$n.txt"
done
stem=$(basename "$(file 005)" .toml)
cp "$stem.toml" "$here/avd-anna-pavel-005.toml"
cp "$stem.eml" "$here/avd-anna-pavel-005.eml"
cp anna.id.toml pavel.id.toml "$here/"
echo "examples written to $here"
