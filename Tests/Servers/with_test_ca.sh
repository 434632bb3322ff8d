#!/usr/bin/env bash
# Runs a command with a certificate authority made for this run, trusted the only way Linux's FoundationNetworking
# can be told to trust one: through the system's CA bundle. The bundle (system authorities plus the run's) is
# bind-mounted over /etc/ssl/certs/ca-certificates.crt in a private mount namespace, so only the command sees it
# and nothing on the machine changes. NETWORKING_TEST_CA_DIR (ca.pem, ca.key) tells the fault server and the tests
# where the authority is; on Apple platforms the tests trust it through ServerTrust and no namespace is needed.
set -euo pipefail
dir=$(mktemp -d "${TMPDIR:-/tmp}/networking-test-ca.XXXXXX")
trap 'rm -rf "$dir"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
    -subj "/CN=Networking test authority $$" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
export NETWORKING_TEST_CA_DIR="$dir"
if [ "$(uname -s)" != Linux ]; then
    "$@"
    exit
fi
system=/etc/ssl/certs/ca-certificates.crt
[ -f "$system" ] || { echo "with_test_ca: $system is missing (apt-get install ca-certificates)" >&2; exit 1; }
cat "$system" "$dir/ca.pem" > "$dir/bundle.pem"
as_root=()
[ "$(id -u)" = 0 ] || as_root=(--map-root-user)
# First make sure the namespace and the mount can be made here, so a failure of the command itself is never
# mistaken for one of the set-up (a container without CAP_SYS_ADMIN or user namespaces cannot).
if ! unshare "${as_root[@]}" --mount --propagation private -- \
    sh -c 'mount --bind "$1" /etc/ssl/certs/ca-certificates.crt' sh "$dir/bundle.pem" 2>"$dir/unshare.err"; then
    echo "with_test_ca: cannot trust the test authority: a private mount namespace could not be made" \
        "($(cat "$dir/unshare.err")). Run as root, or allow user namespaces (in Docker: --cap-add SYS_ADMIN)." >&2
    exit 1
fi
status=0
unshare "${as_root[@]}" --mount --propagation private -- \
    sh -c 'mount --bind "$1" /etc/ssl/certs/ca-certificates.crt && shift && exec "$@"' sh "$dir/bundle.pem" "$@" \
    || status=$?
exit "$status"
