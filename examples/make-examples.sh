#!/usr/bin/env bash
# Regenerates the files in this folder: a short A Victory Denied practice
# game between two generated players (their private keys stay in a
# temporary folder and are thrown away), the orders files used, the turn
# logs and the email made for the last exchange.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
anna="env PBEM_HOME=$work/anna pbem"
pavel="env PBEM_HOME=$work/pavel pbem"
$anna keygen --name Anna --email anna@example.org --no-passphrase >/dev/null
$pavel keygen --name Pavel --email pavel@example.org --no-passphrase >/dev/null
$anna new avd/practice --side german=me --side soviet=pavel.id.toml --dice sealed >/dev/null
$pavel join --yes avd-anna-pavel-001.toml >/dev/null
$anna play avd-anna-pavel-002.toml --orders "$here/orders-german-1.toml" >/dev/null
$pavel play avd-anna-pavel-003.toml --orders "$here/orders-soviet-1.toml" >/dev/null
$anna play avd-anna-pavel-004.toml --orders "$here/orders-german-2.toml" >/dev/null
$anna mail avd-anna-pavel-005.toml >/dev/null
cp anna.id.toml pavel.id.toml avd-anna-pavel-005.toml avd-anna-pavel-00[345].txt avd-anna-pavel-005.eml "$here/"
echo "examples written to $here"
