#!/bin/sh
# Makes sure nginx is installed, for the HTTP/2 tests of the libcurl transport (make test) and the loopback benchmark
# (make bench): Debian's nginx-light with apt-get on Linux (sudo when not root), Homebrew's nginx on macOS. $1 names
# the make target for the message when it cannot be installed.
for candidate in nginx /usr/sbin/nginx /usr/local/sbin/nginx /opt/homebrew/bin/nginx /usr/local/bin/nginx; do
    command -v "$candidate" >/dev/null 2>&1 && exit 0
done
target=${1:-test}
case "$(uname -s)" in
Darwin)
    if command -v brew >/dev/null 2>&1; then
        echo "Installing nginx with Homebrew (brew install nginx) for make $target..."
        brew install nginx >/dev/null && exit 0
    fi
    echo "make $target needs nginx: install it with Homebrew (brew install nginx) and run make $target again" >&2
    ;;
*)
    echo "Installing nginx (Debian package nginx-light) for make $target..."
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && $sudo apt-get install -y -qq nginx-light >/dev/null && exit 0
    echo "nginx could not be installed; install it (apt-get install nginx-light) and run make $target again" >&2
    ;;
esac
exit 1
