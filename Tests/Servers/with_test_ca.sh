#!/usr/bin/env bash
# Runs a command with a certificate authority made for this run, trusted as an installed system authority is
# (update-ca-certificates): in the system's CA bundle, the one way Linux's FoundationNetworking can be told, and as a
# hashed file in the authority directory, which libcurl and OpenSSL also read. A copy of /etc/ssl/certs holding both
# is bind-mounted over it in a private mount namespace, so only the command sees it and nothing on the machine
# changes. NETWORKING_TEST_CA_DIR (ca.pem, ca.key) tells the fault server and the tests
# where the authority is; on Apple platforms the tests trust it through ServerTrust and no namespace is needed.
set -euo pipefail
dir=$(mktemp -d "${TMPDIR:-/tmp}/networking-test-ca.XXXXXX")
trap 'rm -rf "$dir"' EXIT
# Its key names its curve, as every test key does (certificates.py says why: LibreSSL on a Mac).
python3 "$(dirname "$0")/certificates.py" authority "$dir" --subject "/CN=Networking test authority $$"
export NETWORKING_TEST_CA_DIR="$dir"
if [ "$(uname -s)" != Linux ]; then
    "$@"
    exit
fi
system=/etc/ssl/certs/ca-certificates.crt
[ -f "$system" ] || { echo "with_test_ca: $system is missing (apt-get install ca-certificates)" >&2; exit 1; }
cat "$system" "$dir/ca.pem" > "$dir/bundle.pem"
certs="$dir/certs"
mkdir "$certs"
cp -a /etc/ssl/certs/. "$certs/"
rm -f "$certs/ca-certificates.crt"
cp "$dir/bundle.pem" "$certs/ca-certificates.crt"
cp "$dir/ca.pem" "$certs/$(openssl x509 -hash -noout -in "$dir/ca.pem").0"
as_root=()
[ "$(id -u)" = 0 ] || as_root=(--map-root-user)
# First make sure the namespace and the mount can be made here, so a failure of the command itself is never
# mistaken for one of the set-up (a container without CAP_SYS_ADMIN or user namespaces cannot).
if ! unshare "${as_root[@]}" --mount --propagation private -- \
    sh -c 'mount --bind "$1" /etc/ssl/certs' sh "$certs" 2>"$dir/unshare.err"; then
    echo "with_test_ca: cannot trust the test authority: a private mount namespace could not be made" \
        "($(cat "$dir/unshare.err")). Run as root, or allow user namespaces (in Docker: --cap-add SYS_ADMIN)." >&2
    exit 1
fi
status=0
unshare "${as_root[@]}" --mount --propagation private -- \
    sh -c 'mount --bind "$1" /etc/ssl/certs && shift && exec "$@"' sh "$certs" "$@" \
    || status=$?
exit "$status"
