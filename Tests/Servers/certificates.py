#!/usr/bin/env python3
"""The tests' certificates, made with the openssl command: the run's authority (with_test_ca.sh), and
certificates for 127.0.0.1 and for clients, self-signed or signed by it (fault_server.py, NginxHTTP2Server.swift).
Standard library only.

Every key is P-256 with its curve written by name. LibreSSL before 3.4 (a Mac's /usr/bin/openssl is 3.3) gives a
key made with `-pkeyopt ec_paramgen_curve:…` explicit curve parameters unless `ec_param_enc:named_curve` says
otherwise (its EC_GROUP defaults to explicit; LibreSSL 3.4 changed the default), and Apple's Security does not take
explicit parameters; OpenSSL 1.1 and 3 write the name either way.

Every signature is ECDSA with SHA-256, said on each command: LibreSSL's `x509 -req` takes no default digest of its
own and falls back to the key's, SHA-1 for EC (libressl-v3.3.6 `usr.bin/openssl/x509.c`, `ec_ameth.c`
ASN1_PKEY_CTRL_DEFAULT_MD_NID). Apple trusts no SHA-1 signed server certificate, and OpenSSL 3 (Homebrew's Python
and nginx) refuses to load one ("ca md too weak"); OpenSSL here signs with SHA-256 by default.

Usage:
    certificates.py authority DIR [--subject S]   ca.pem and ca.key in DIR
    certificates.py issue DIR NAME SUBJECT [--authority CA_DIR] [--extension TEXT]...
                                                  NAME.pem and NAME.key in DIR, signed by CA_DIR's authority or
                                                  self-signed; each --extension a line such as
                                                  subjectAltName=IP:127.0.0.1
    certificates.py check                         makes one of each kind in a temporary folder and fails unless each
                                                  key and certificate names its curve and each certificate is
                                                  signed with ecdsa-with-SHA256 (make portability)
"""
import argparse
import os
import re
import secrets
import subprocess
import sys
import tempfile

# The key every certificate here gets; each command that makes a key takes these arguments.
EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-pkeyopt", "ec_param_enc:named_curve",
          "-nodes"]


def openssl(*arguments):
    result = subprocess.run(["openssl", *arguments], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise OSError(f"openssl {arguments[0]} failed ({result.returncode}): {result.stderr.strip()[-500:]}")
    return result.stdout


def authority(directory, subject="/CN=Networking test authority"):
    """Makes ca.pem and ca.key in `directory`: a certificate authority valid for a day."""
    openssl("req", "-x509", "-sha256", *EC_KEY, "-days", "1", "-subj", subject,
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            "-keyout", os.path.join(directory, "ca.key"), "-out", os.path.join(directory, "ca.pem"))


def issue(directory, name, subject, extensions=(), authority_dir=None):
    """Makes NAME.pem and NAME.key in `directory`, valid for a day, with `extensions` (lines such as
    `extendedKeyUsage=serverAuth`), signed by the authority in `authority_dir` (ca.pem, ca.key) or self-signed.
    Returns (certificate path, key path)."""
    cert, key = os.path.join(directory, f"{name}.pem"), os.path.join(directory, f"{name}.key")
    if authority_dir is None:
        added = [argument for line in extensions for argument in ("-addext", line)]
        openssl("req", "-x509", "-sha256", *EC_KEY, "-days", "1", "-subj", subject, *added, "-keyout", key,
                "-out", cert)
        return cert, key
    csr, extfile = os.path.join(directory, f"{name}.csr"), os.path.join(directory, f"{name}.ext")
    with open(extfile, "w") as f:
        f.write("".join(line + "\n" for line in extensions))
    openssl("req", "-sha256", *EC_KEY, "-subj", subject, "-keyout", key, "-out", csr)
    # A random serial: certificates the one authority signs for the fault server and for nginx never share one.
    openssl("x509", "-req", "-sha256", "-in", csr, "-CA", os.path.join(authority_dir, "ca.pem"),
            "-CAkey", os.path.join(authority_dir, "ca.key"), "-set_serial", str(secrets.randbits(62) + 1),
            "-days", "1", "-extfile", extfile, "-out", cert)
    return cert, key


def named_curve_problems(path, kind):
    """Why the key or certificate at `path` does not name its curve, or the certificate is not signed with SHA-256,
    or None: openssl prints `ASN1 OID: <name>` for a named curve and the field and coefficients for explicit
    parameters, and `Signature Algorithm: ecdsa-with-SHA256` for the signature."""
    text = openssl("ec", "-in", path, "-text", "-noout") if kind == "key" else \
        openssl("x509", "-in", path, "-text", "-noout")
    if "ASN1 OID: prime256v1" not in text:
        return f"{path}: the {kind}'s curve is not named (no 'ASN1 OID: prime256v1' in openssl's text)"
    signatures = set(re.findall(r"Signature Algorithm: (\S+)", text))
    if kind == "certificate" and signatures != {"ecdsa-with-SHA256"}:
        return f"{path}: the certificate is signed with {', '.join(sorted(signatures))}, not ecdsa-with-SHA256"
    return None


def check():
    """Makes the authority, a self-signed certificate and one it signed, and checks every key and certificate."""
    with tempfile.TemporaryDirectory() as directory:
        authority(directory)
        made = [("ca", os.path.join(directory, "ca.pem"), os.path.join(directory, "ca.key"))]
        made.append(("self-signed",) + issue(directory, "self", "/CN=127.0.0.1", ["subjectAltName=IP:127.0.0.1"]))
        made.append(("signed",) + issue(directory, "leaf", "/CN=127.0.0.1",
                                        ["subjectAltName=IP:127.0.0.1", "extendedKeyUsage=serverAuth"], directory))
        problems = [problem for _, cert, key in made
                    for problem in (named_curve_problems(key, "key"), named_curve_problems(cert, "certificate"))
                    if problem]
    version = openssl("version").strip()
    for problem in problems:
        print(f"certificates: {problem}")
    if problems:
        print(f"certificates check: {len(problems)} keys or certificates with explicit curve parameters or a"
              f" signature other than ECDSA with SHA-256 ({version})", file=sys.stderr)
        return 1
    print(f"certificates check: the authority, a self-signed and a signed certificate and their keys name their"
          f" curve (prime256v1), each certificate signed with ecdsa-with-SHA256 ({version})")
    return 0


def main():
    parser = argparse.ArgumentParser(description="The tests' certificates")
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("authority")
    made.add_argument("directory")
    made.add_argument("--subject", default="/CN=Networking test authority")
    issued = commands.add_parser("issue")
    issued.add_argument("directory")
    issued.add_argument("name")
    issued.add_argument("subject")
    issued.add_argument("--authority")
    issued.add_argument("--extension", action="append", default=[])
    commands.add_parser("check")
    args = parser.parse_args()
    try:
        if args.command == "authority":
            authority(args.directory, args.subject)
        elif args.command == "issue":
            issue(args.directory, args.name, args.subject, args.extension, args.authority)
        else:
            return check()
    except OSError as error:
        sys.exit(f"certificates: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
