#!/usr/bin/env python3
"""Fails when a test key could be written with explicit curve parameters, or a test certificate signed with SHA-1
(make portability).

A Mac's openssl is LibreSSL 3.3, which differs from the OpenSSL here in two defaults a run here cannot see:
  - it writes an EC key made with `-pkeyopt ec_paramgen_curve:…` with explicit parameters unless `-pkeyopt
    ec_param_enc:named_curve` says otherwise, and Apple's Security refuses such keys;
  - its `x509 -req` signs with the key's default digest, SHA-1 for an EC key (`ec_ameth.c`,
    ASN1_PKEY_CTRL_DEFAULT_MD_NID), unless `-sha256` says otherwise; Apple trusts no SHA-1 signed server
    certificate, and OpenSSL 3 (Homebrew's Python and nginx) refuses to load one ("ca md too weak").
Two checks:
  - every command line in the code (Swift, Python, shell, Makefile, CI) that makes an EC key, with
    `ec_paramgen_curve`, `genpkey`, `ecparam` or `-newkey ec`, carries `named_curve` within it, and every one that
    signs (`req`, `x509 -req`) carries `-sha256` (the next few hundred characters: the arguments of one call or one
    continued shell line);
  - Tests/Servers/certificates.py, which makes every key the test servers use, makes an authority, a self-signed
    and a signed certificate, and each key and certificate names its curve (`openssl … -text` shows `ASN1 OID`),
    and each certificate is signed with `ecdsa-with-SHA256`.
Usage: named_curve_check.py DIR_OR_FILE...
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Servers"))
import certificates  # noqa: E402

KEY_MAKING = re.compile(r"ec_paramgen_curve|\bgenpkey\b|\becparam\b|-newkey\W{1,4}ec\b")
NEW_COMMAND = re.compile(r"\bgenpkey\b|\becparam\b|-newkey\b")
# A command that signs: `openssl req` (a certificate with -x509, else a request) and `openssl x509 -req`, in a shell
# line or as the first argument of a call (`"req"`, `"x509", "-req"`).
SIGNING = re.compile(r"""\bopenssl\s+req\b|\bopenssl\s+x509\s+-req\b|(?<![\w-])["']req["']|["']x509["']\W{1,4}-req\b""")
SIGNING_END = re.compile(r"""\bopenssl\s|["'](?:req|x509|ec|pkey|dgst|version)["']\s*,""")
WINDOW = 300  # characters after the match that belong to the same command (an argument list, a continued line)
CODE = {".swift", ".py", ".sh"}
THIS = Path(__file__).resolve()


def files(paths):
    for path in map(Path, paths):
        if path.is_file():
            yield path
        else:
            for found in sorted(path.rglob("*")):
                if found.is_file() and (found.suffix in CODE or found.name in ("Makefile", "run")):
                    yield found


def unnamed(path):
    """Places in `path` where a key is made without `named_curve` in the same command."""
    if path.resolve() == THIS:
        return []
    text = path.read_text(encoding="utf-8", errors="replace")
    found = []
    for match in KEY_MAKING.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        line = text[line_start:text.find("\n", match.start())]
        if line.lstrip().startswith(("#", "//", "///", "*")) or '"""' in line:
            continue  # prose about the option, not a command
        command = text[match.start():match.start() + WINDOW]
        # The next command's key is its own (and so is the next curve's, for a curve).
        ends = NEW_COMMAND if match.group(0) != "ec_paramgen_curve" else KEY_MAKING
        following = ends.search(command, 1)
        if following:
            command = command[:following.start()]
        if "named_curve" not in command:
            number = text.count("\n", 0, match.start()) + 1
            found.append(f"{path}:{number}: an EC key made without ec_param_enc:named_curve: {line.strip()}")
    for match in SIGNING.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        line = text[line_start:text.find("\n", match.start())]
        if line.lstrip().startswith(("#", "//", "///", "*")) or '"""' in line:
            continue
        command = text[match.start():match.start() + WINDOW]
        following = SIGNING_END.search(command, len(match.group(0)))
        if following:
            command = command[:following.start()]
        if "-sha256" not in command:
            number = text.count("\n", 0, match.start()) + 1
            found.append(f"{path}:{number}: a certificate or request signed without -sha256 (LibreSSL signs an EC"
                         f" key's with SHA-1): {line.strip()}")
    return sorted(set(found), key=lambda text: int(text.split(":")[1]))


def main(paths):
    found = [problem for path in files(paths or ["Sources", "Tests", "Makefile", ".ci"]) for problem in unnamed(path)]
    for problem in found:
        print(problem)
    if found:
        print(f"named_curve_check: {len(found)} commands making an EC key without ec_param_enc:named_curve or signing"
              " without -sha256 (LibreSSL, as on a Mac, would write explicit curve parameters or sign with SHA-1)",
              file=sys.stderr)
    else:
        print("named_curve_check: every command making an EC key names its curve, every one signing says -sha256")
    return 1 if found else certificates.check()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
