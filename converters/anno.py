"""Annotations attached to gast nodes under enum keys.

Annotations live in one dict attribute per node (named `ATTR`), so copies
(`copy.deepcopy`, `converters.copier.copy_tree`) carry them along with the node.
`Basic` keys are set by the converters for each other; `Static` keys are set by
`converters.analysis`.
"""
import enum

ATTR = '___ag_anno'


class _Key(enum.Enum):
    # Members are singletons compared by identity: hashing by identity is C code, where
    # Enum's own `hash(self._name_)` is a Python call on every annotation lookup.
    __hash__ = object.__hash__


class Basic(_Key):
    SKIP_PROCESSING = 'converters leave this node and its children as they are'
    EXTRA_LOOP_TEST = 'expression that must stay true for a loop to keep iterating'
    LOOP_OPTIONS = 'keywords from set_loop_options, for the loop opts dict'
    MAY_BE_UNDEFINED = ("a load of a name that may still hold an ag__.Undefined: 'local', "
                        "or 'free' in a closure (Python raises NameError there)")
    MARKED_LOADS = 'of a converted function: some load in it may be marked MAY_BE_UNDEFINED'
    THUNK = 'generated lambda or function that only runs within the statement using it'
    BREAK_LOWERED = 'a loop whose break became a flag: it may end although its test is true'


class Static(_Key):
    SCOPE = 'activity Scope of a function or lambda'
    CALLS = 'of a function: {local function name: activity Effects of calling it}'
    HEAD_SCOPE = 'activity Scope of the part of a compound statement before its blocks'
    BODY_SCOPE = 'activity Scope of the body block of a compound statement'
    ORELSE_SCOPE = 'activity Scope of the orelse block of a compound statement'
    LIVE_VARS_IN = 'names live before the statement runs'
    LIVE_VARS_OUT = 'names live after the statement completes normally'
    DEFINED_VARS_IN = 'names definitely bound before the statement runs'
    MAYBE_DEFINED_VARS_IN = 'names bound on at least one path to the statement'


def _annos(node):
    return node.__dict__.setdefault(ATTR, {})


def hasanno(node, key):
    return key in getattr(node, ATTR, {})


def getanno(node, key, default=None):
    return getattr(node, ATTR, {}).get(key, default)


def setanno(node, key, value):
    _annos(node)[key] = value


def delanno(node, key):
    getattr(node, ATTR, {}).pop(key, None)


def copyanno(from_node, to_node, key):
    if hasanno(from_node, key):
        setanno(to_node, key, getanno(from_node, key))
