"""ECMA-262 (``u`` flag) patterns translated to Python: JavaScript's answers, not Python's."""

from __future__ import annotations

import re
import warnings

import pytest

from gurps_character import _ecma
from gurps_character._ecma import EcmaPatternError, translate


def test(pattern: str, text: str) -> bool:
    """What ``new RegExp(pattern, "u").test(text)`` gives."""
    return _ecma.compile(pattern).search(text) is not None


test.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        # the bundled schema's patterns
        (r"^1\.\d+\.\d+$", "1.3.0", True),
        (r"^1\.\d+\.\d+$", "1.30.12", True),
        (r"^1\.\d+\.\d+$", "1.3.0\n", False),  # Python's $ would accept the final newline
        (r"^1\.\d+\.\d+$", "1x3.0", False),
        (r"^1\.\d+\.\d+$", "1.\u0663.0", False),  # ARABIC-INDIC DIGIT THREE is not \d
        (r"^1\.\d+\.\d+$", "\n1.3.0", False),
        (r"^[a-z]{2,3}(-[A-Z]{2})?$", "pt-BR", True),
        (r"^[a-z]{2,3}(-[A-Z]{2})?$", "eng", True),
        (r"^[a-z]{2,3}(-[A-Z]{2})?$", "en\n", False),
        (r"^[a-z]{2,3}(-[A-Z]{2})?$", "EN", False),
        (r"^(/[^/]+)+$", "/defenses/dodge/value", True),
        (r"^(/[^/]+)+$", "/a\nb", True),  # [^/] includes line terminators
        (r"^(/[^/]+)+$", "/defenses/dodge/", False),
        (r"^(/[^/]+)+$", "/a\n", True),
        (r"^\d+d([+-]\d+)?$", "3d+1", True),
        (r"^\d+d([+-]\d+)?$", "1d-2\n", False),
        (r"^\d+d([+-]\d+)?$", "1d+1.5", False),
        (r"^[a-z0-9-]+(\.[a-z0-9-]+)+$", "com.example.vtt", True),
        (r"^[a-z0-9-]+(\.[a-z0-9-]+)+$", "dev.tabletop-tools.initiative", True),
        (r"^[a-z0-9-]+(\.[a-z0-9-]+)+$", "", False),
        (r"^[a-z0-9-]+(\.[a-z0-9-]+)+$", "vtt", False),
        (r"^[a-z0-9-]+(\.[a-z0-9-]+)+$", "com.example\n", False),
        (r"^B\d+$", "B419", True),
        # anchors and search semantics
        ("b", "abc", True),
        ("^b", "abc", False),
        ("^b", "a\nb", False),  # no multiline
        ("a$", "a\n", False),
        ("a$", "ba", True),
        ("", "", True),
        # . and line terminators
        ("^.$", "\n", False),
        ("^.$", "\r", False),
        ("^.$", "\u2028", False),
        ("^.$", "\u2029", False),
        ("^.$", "\u0085", True),
        ("^.$", "\U0001f600", True),  # one code point under the u flag
        ("^.$", "\x00", True),
        # shorthand classes are ECMA's
        (r"^\d$", "\u0661", False),
        (r"^\d$", "\uff11", False),
        (r"^\w+$", "abc_XYZ_09", True),
        (r"^\w$", "\u00e9", False),
        (r"^\W$", "\u00e9", True),
        (r"^\s$", "\ufeff", True),
        (r"^\s$", "\u00a0", True),
        (r"^\s$", "\u3000", True),
        (r"^\s$", "\u2028", True),
        (r"^\s$", "\u0085", False),  # Python's \s matches NEXT LINE
        (r"^\s$", "\x1c", False),
        (r"^\s$", "\u180e", False),
        (r"^\S$", "\u0085", True),
        (r"^\D$", "\u0661", True),
        # word boundaries use ASCII word characters
        (r"\bcafe\b", "a cafe.", True),
        (r"\bcaf\b", "caf\u00e9", True),  # \u00e9 is not a word character in ECMA-262
        (r"\Bb", "ab", True),
        (r"\Bb", "b", False),
        # escapes
        (r"^\u{1F600}$", "\U0001f600", True),
        (r"^\uD83D\uDE00$", "\U0001f600", True),  # a surrogate pair escape is one code point
        (r"^\ud800$", "\ud800", True),
        (r"^\x41\u0042$", "AB", True),
        (r"^\cJ$", "\n", True),
        (r"^\0$", "\x00", True),
        (r"^\t\n\v\f\r$", "\t\n\v\f\r", True),
        (r"^\/\.\*\+\?\(\)\[\]\{\}\|\^\$\\$", "/.*+?()[]{}|^$\\", True),
        # characters that are special to Python but plain to ECMA-262
        ("^#$", "#", True),
        ("^ $", " ", True),
        ("^'\"$", "'\"", True),
        # classes
        ("^[a-c]+$", "abcab", True),
        ("^[^a-c]$", "d", True),
        ("^[^a-c]$", "b", False),
        (r"^[\d\s]+$", "1 2\u00a03", True),
        (r"^[\D]$", "a", True),
        (r"^[\D]$", "1", False),
        (r"^[^\D]$", "1", True),
        (r"^[\S\d]$", "1", True),
        (r"^[\S\d]$", " ", False),
        (r"^[^\W\s]$", "a", True),
        (r"^[^\W\s]$", " ", False),
        (r"^[^\W\s]$", "-", False),
        (r"^[^\D\s]$", "5", True),
        (r"^[\s\S]$", "\n", True),
        ("^[^]$", "\n", True),
        ("[]", "a", False),
        ("^[]?$", "", True),
        (r"^[\b]$", "\b", True),
        ("^[-a]+$", "-a", True),
        ("^[a-]+$", "-a", True),
        (r"^[\-]$", "-", True),
        ("^[&&]$", "&", True),
        ("^[--]$", "-", True),
        ("^[[]$", "[", True),
        (r"^[\u{1F600}-\u{1F64F}]$", "\U0001f610", True),
        (r"^[\cJ]$", "\n", True),
        # quantifiers and groups
        ("^a{2}$", "aa", True),
        ("^a{2,}$", "aaaa", True),
        ("^a{2,3}$", "aaaa", False),
        ("^(?:ab)+$", "abab", True),
        ("^a+?$", "aaa", True),
        ("^(a|b)*c$", "abbac", True),
        ("^(?=a)[a-z]+$", "abc", True),
        ("^(?!a)[a-z]+$", "abc", False),
        ("(?<=a)b", "ab", True),
        ("(?<!a)b", "ab", False),
        # backreferences: a group that has not matched matches the empty text
        (r"^(a)\1$", "aa", True),
        (r"^(?:(a)|b)\1$", "b", True),
        (r"^(?<x>[ab])\k<x>$", "bb", True),
        (r"^(?<x>[ab])\k<x>$", "ab", False),
        (r"^(?<$x>a)\k<$x>$", "aa", True),
        (r"^(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10$", "abcdefghijj", True),
        (r"^(a)\1 0$", "aa 0", True),
    ],
)
def test_matches_as_javascript(pattern: str, text: str, matches: bool) -> None:
    assert test(pattern, text) is matches


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("a{", "incomplete quantifier"),
        ("a{1", "incomplete quantifier"),
        ("a{,2}", "incomplete quantifier"),
        ("a{2,1}", "numbers out of order in {} quantifier"),
        ("{", "nothing to repeat"),
        ("*", "nothing to repeat"),
        ("a**", "nothing to repeat"),
        ("a{1}{2}", "nothing to repeat"),
        ("^*", "nothing to repeat"),
        ("(?=a)*", "nothing to repeat"),
        ("(?<=a)?", "nothing to repeat"),
        ("}", "lone '}'"),
        ("]", "lone ']'"),
        ("(", "missing ')'"),
        ("(?:a", "missing ')'"),
        (")", "unmatched ')'"),
        ("a)", "unmatched ')'"),
        ("(?", "invalid group"),
        ("(?a)", "invalid group"),
        ("[a", "missing ']'"),
        ("[z-a]", "range out of order in character class"),
        (r"[\d-z]", "invalid character class range"),
        (r"[a-\w]", "invalid character class range"),
        ("\\", "\\ at end of pattern"),
        (r"\q", "invalid escape"),
        (r"\-", "invalid escape"),
        (r"\a", "invalid escape"),
        (r"\1", "invalid escape (no such group)"),
        (r"(a)\2", "invalid escape (no such group)"),
        (r"\00", "invalid decimal escape"),
        (r"\c1", "invalid control escape"),
        (r"\x4", "invalid hexadecimal escape"),
        (r"\u004", "invalid Unicode escape"),
        (r"\u{110000}", "invalid Unicode escape"),
        (r"\u{}", "invalid Unicode escape"),
        (r"[\1]", "invalid class escape"),
        (r"[\B]", "invalid escape"),
        (r"\k", "invalid named reference"),
        (r"\k<x>", "no group named 'x'"),
        (r"\k<x>(?<y>a)", "no group named 'x'"),
        ("(?<1x>a)", "invalid group name"),
        ("(?<x>a)(?<x>b)", "duplicate group name 'x'"),
        (r"\p{L}", "Unicode property escapes are not supported"),
        (r"[\P{L}]", "Unicode property escapes are not supported"),
    ],
)
def test_rejects(pattern: str, reason: str) -> None:
    with pytest.raises(EcmaPatternError) as caught:
        translate(pattern)
    assert caught.value.reason == reason
    assert caught.value.pattern == pattern


def test_error_message_points_at_the_problem() -> None:
    with pytest.raises(EcmaPatternError) as caught:
        translate("^[a-z]+{2}$")
    assert str(caught.value) == "nothing to repeat at position 7\n    ^[a-z]+{2}$\n           ^"
    assert caught.value.position == 7
    assert isinstance(caught.value, ValueError)


def test_variable_width_lookbehind_is_reported_not_raised_as_re_error() -> None:
    with pytest.raises(EcmaPatternError, match="not supported by Python's re"):
        _ecma.compile("(?<=a+)b")


@pytest.mark.parametrize(
    ("pattern", "python"),
    [
        (r"^1\.\d+\.\d+$", r"\A1\x2e[0-9]+\x2e[0-9]+\Z"),
        (r"^[a-z]{2,3}(-[A-Z]{2})?$", r"\A[a-z]{2,3}(?:(\x2d[A-Z]{2}))?\Z"),
        ("a.c", r"a[^\x0a\x0d\u2028-\u2029]c"),
        (r"\u{1F600}+", r"\U0001f600+"),
        ("[]", "(?!)"),
        ("[^]", r"[\x00-\U0010ffff]"),
        (r"(a)|\1", r"(a)|(?:(?(1)\1))"),
        (r"(?<n>a)\k<n>", r"(a)(?:(?(1)\1))"),
    ],
)
def test_translation(pattern: str, python: str) -> None:
    assert translate(pattern) == python


def test_translations_compile_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for pattern in ["[[]", "[&&]", "[--]", "[||]", "[~~]", "[a-z&&b]", "#[ ]"]:
            re.compile(translate(pattern))


def test_compile_is_cached() -> None:
    assert _ecma.compile(r"^B\d+$") is _ecma.compile(r"^B\d+$")
