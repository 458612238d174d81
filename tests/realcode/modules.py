"""The standard-library modules the real-code harness converts, and the CPython test
module that checks each.

A `Module` names the stdlib sources copied (and converted) onto a fresh `sys.path`
entry, a file `name.py` or a package folder `name/`, and the test module run against
them. Every source is pure Python and can be shadowed: the runner drops it (and its
submodules) from `sys.modules` before importing the test module, so the test imports
the copy. Core modules that the interpreter, unittest or autograph_py itself lean on
(os, re, functools, collections, enum, typing, abc, inspect, ...) are left out: a
second copy of them next to the real one tests nothing but the copy's identity. Frozen
modules (ntpath, posixpath, runpy, ...) cannot be shadowed at all: the frozen importer
comes before `sys.path`; the runner reports a module loaded from elsewhere. lib2to3's
tests discover themselves under the real stdlib folder, so they cannot run on a copy.

`CI` is the small budget that `test_realcode.py` runs on every test run: modules whose
tests take a few seconds converted, chosen to cover single files and packages, classes,
loops, `try` and comprehensions.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Module:
    name: str                   # the harness's name for the entry (what -m selects)
    test: str                   # the CPython test module (or package) run against it
    sources: tuple = ()         # stdlib files/packages copied; default: (name,)
    timeout: int = 600          # seconds for one run of the test module

    @property
    def paths(self):
        return self.sources or (self.name,)


MODULES = [Module(*entry) if isinstance(entry, tuple) else Module(entry, f"test.test_{entry}")
           for entry in [
    # single files
    "difflib", "statistics", "fractions", "ipaddress", "csv", "calendar", "pickletools",
    "textwrap", "shlex", "colorsys", "bisect", "heapq", "base64", "quopri", "uu",
    "gettext", "netrc", "fnmatch", "glob", "configparser", "getopt", "optparse",
    "argparse", "pprint", "reprlib", "string", "plistlib", "mailbox", "mimetypes",
    "zipfile", "tarfile", "gzip", "zipapp", "filecmp", "fileinput", "cmd", "codeop",
    "graphlib", "queue", "sched", "secrets", "stringprep", "symtable", "tabnanny",
    "timeit", "uuid", "wave", "xdrlib", "sndhdr", "imghdr", "aifc", "sunau", "cgi",
    "mailcap", "pyclbr", "py_compile", "compileall", "modulefinder",
    "pathlib", "operator", "hmac", "shelve", "copy", "random", "pstats", "locale",
    "crypt", "pipes", "keyword", "tokenize", "trace", "bdb", "linecache",
    "rlcompleter", "cgitb", "webbrowser", "smtplib", "poplib", "nntplib", "telnetlib",
    "ftplib", "imaplib", "selectors", "getpass", "pty", "dataclasses", "pickle",
    "smtpd", "asynchat", "asyncore",
    ("ast", "test.test_unparse"),
    ("code", "test.test_code_module"),
    ("decimal", "test.test_decimal", ("decimal", "_pydecimal")),
    # Converted code is slow on plain values (the fast path off): test_datetime's
    # ZoneInfoTest walks every zone.
    ("datetime", "test.test_datetime", ("datetime", "_strptime"), 2400),
    ("profile", "test.test_profile", ("profile",)),
    # packages
    "json", "email", "tomllib", "html", "wsgiref", "zoneinfo", "logging",
    ("htmlparser", "test.test_htmlparser", ("html",)),
    ("http.cookies", "test.test_http_cookies", ("http",)),
    ("http.cookiejar", "test.test_http_cookiejar", ("http",)),
    ("http.client", "test.test_httplib", ("http",)),
    ("urllib.parse", "test.test_urlparse", ("urllib",)),
    ("urllib.robotparser", "test.test_robotparser", ("urllib",)),
    ("xml.dom.minidom", "test.test_minidom", ("xml",)),
    ("xml.dom.pulldom", "test.test_pulldom", ("xml",)),
    ("xml.sax", "test.test_sax", ("xml",)),
    ("xml.etree", "test.test_xml_etree", ("xml",)),
    ("dbm.dumb", "test.test_dbm_dumb", ("dbm",)),
    ("xmlrpc", "test.test_xmlrpc", ("xmlrpc",)),
    ("sqlite3", "test.test_sqlite3", ("sqlite3",)),
    ("urllib.request", "test.test_urllib2", ("urllib",)),
]]

BY_NAME = {m.name: m for m in MODULES}

# The CI budget (tests/realcode/test_realcode.py): quick, and broad in the constructs
# they exercise.
CI = ["colorsys", "shlex", "textwrap", "json", "graphlib", "fnmatch"]

# Tests that fail converted for a reason conversion cannot remove, each with the setting
# it fails in and why (docs/limitations.md): not counted as newly failing, reported as
# `expected=N`, and the run fails once one of them passes (remove it then).
_TOMLLIB_DEPTH = (
    "nests arrays (tables) to 46.5% of the recursion limit, about two frames per level "
    "in the original; converted code runs each `if`/`while` body in a closure called by "
    "an operator, about 16 frames per level, and meets the limit near 60 levels "
    "(docs/limitations.md, 'Recursion depth on the converted path')")
EXPECTED = {
    "test.test_tomllib.test_misc.TestMiscellaneous.test_inline_array_recursion_limit":
        ("off", _TOMLLIB_DEPTH),
    "test.test_tomllib.test_misc.TestMiscellaneous.test_inline_table_recursion_limit":
        ("off", _TOMLLIB_DEPTH),
}
