#!/usr/bin/env bash
# Installs the real JSON encoders that test/canonical/encoders.test.ts measures the trap model
# against (one process per language, see test/canonical/encoders/):
#   python3               json.dumps
#   golang-go             encoding/json
#   ruby                  JSON.generate (the json gem ships with Ruby)
#   php-cli               json_encode (built into PHP 8)
#   default-jdk-headless  Double.toString (`java Doubles.java` needs the compiler, so a JDK)
# Debian/Ubuntu, non-interactive, quiet; installs only what is missing, so it is cheap to rerun.
set -euo pipefail

missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v go >/dev/null 2>&1 || missing+=(golang-go)
command -v ruby >/dev/null 2>&1 || missing+=(ruby)
command -v php >/dev/null 2>&1 || missing+=(php-cli)
command -v javac >/dev/null 2>&1 || missing+=(default-jdk-headless)

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-encoders: python3, go, ruby, php and a JDK are already installed"
  exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
echo "install-encoders: apt-get install ${missing[*]}"
"${sudo[@]}" apt-get update -qq >/dev/null
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
