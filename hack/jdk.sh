# Sourced by the hack scripts: exports JAVA_HOME pointing at a JDK >= 21 (Temurin 25 preferred).
# The machine's default java is 17, which cannot build this project.
pick_jdk() {
  local candidate version
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-2[1-9]* /usr/lib/jvm/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] || continue
    version=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ {print $2}')
    if [ "${version%%.*}" -ge 21 ] 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}
JAVA_HOME=$(pick_jdk) || { echo "error: no JDK >= 21 found under /usr/lib/jvm (install Temurin 25)" >&2; exit 1; }
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
