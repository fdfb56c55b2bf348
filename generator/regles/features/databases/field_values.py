"""A field's value where the export's collapsed form leaves it unmarked: the last field's
"tail", cut between its value and the description.

The split rule (field value / description)
-------------------------------------------
A field value ends with certainty at a line break or at the next ``- **Clé :**``
marker. Only the LAST field of an entry in the collapsed form has an unmarked
end: its "tail" runs, up to the next heading, into the description. The tail is
cut deterministically, in this order:

1. Vocabulary. Each known key has a closed value grammar (see ``_VOCABULARY``):
   Durée/Temps are durations (``1 minute``, ``10 minutes ou 1 service (max
   24h)``, ``une journée``, ``1 mois ou plus``, ``long``, ``permanent``,
   ``à volonté``…), Zone a distance (``3 m``, ``100 m (×0,5 …)``), Classe class
   words (``Zone``, ``Info``, ``Info Zone``, ``Blocage``, ``Projectile``…),
   Résistance an attribute with optional modifiers (``San``, ``Vol-3``,
   ``Vol+Magerie``…), ``Sort sujet``, ``Pouvoir de l’objet``, ``Test de
   Frayeur`` or the name of an entry of the same export (``Mur de brume``).
   Every prefix of the tail (of at most 16 words) ending at a word boundary
   that matches the grammar AND is followed by a sentence start (a capital
   letter, a digit, ``_``, ``*``, ``«``, ``•``, ``[`` or a signed number) or by
   nothing is a candidate.
   Exactly one candidate: the split is taken as sure (no warning). Several
   candidates: the longest is taken and the entry is flagged uncertain.
2. Empty value. If no candidate exists and the tail starts with a capitalised
   determiner or pronoun (``Le``, ``La``, ``L’…``, ``Ce``, ``Un``, ``Il``…),
   which never starts a value, the field has no value: an error.
3. Fallback (flagged uncertain). The value is the tail's words up to, not
   including, the first word at index ≥ 1 that starts a sentence: a
   capitalised word whose other letters are lowercase (``Matériel``,
   ``L’initiateur``, ``À``; not ``PdM``, ``MR`` nor the attribute
   abbreviations ``Vol``, ``San``…), a word starting with ``_`` or ``**`` or
   ``•``, or a capital/digit word right after a word ending in ``.``, ``!`` or
   ``?``. Without such a word the whole tail is the value.

Every entry cut by (1) with several candidates or by (3) gets a ``warning``
Problem "découpage incertain entre la valeur du champ X et la description".
In the line-broken form the line break is a certain marker: no warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from regles.core.slugs import slugify

__all__ = [
    "split_tail",
]

# --------------------------------------------------------------------------
# Field value vocabulary (rule step 1)
# --------------------------------------------------------------------------

_NUM = r"(?:\d+(?:[,.]\d+)?|une?|deux|trois|quatre|cinq|six|dix|quelques)"
_TIME_UNIT = (
    r"(?:secondes?|minutes?|heures?|journées?|jours?|semaines?|mois|ans?|années?"
    r"|rounds?|tours?|services?|s|min|h|j)"
)
_PAREN = r"(?: \([^()]*\))?"
_DURATION_ATOM = (
    rf"(?:{_NUM} {_TIME_UNIT}(?: maximum| ou plus)?|[Pp]ermanente?|[Ii]nstantanée?|à volonté"
    r"|[Ss]péciale?|[Vv]ariable|[Ii]ndéfinie|[Aa]ucune|[Jj]usqu’au déclenchement)"
)
_DURATION = rf"{_DURATION_ATOM}{_PAREN}(?:(?: ou | / |, ){_DURATION_ATOM}{_PAREN})*"
_ATTRIBUTE = r"(?:San|Vol|HT|For|Dex|Int|Per|Magerie)"
_CLASS_WORD = r"(?:Zone|Info|Blocage|Projectile|Enchantement|Normale?|Spéciale?|Missile|Régulier)"

# Keys are compared accent- and case-insensitively ("Duree", "durée").
_VOCABULARY: dict[str, re.Pattern[str]] = {
    "duree": re.compile(_DURATION),
    "temps": re.compile(rf"(?:[Ll]ong|[Cc]ourt|{_DURATION})"),
    "zone": re.compile(
        rf"{_NUM} (?:m|km|cm|mètres?|kilomètres?|hex)(?: de (?:rayon|diamètre|côté))?{_PAREN}"
    ),
    "classe": re.compile(rf"{_CLASS_WORD}(?: {_CLASS_WORD})*"),
    "resistance": re.compile(
        rf"(?:{_ATTRIBUTE}(?: ?[-+−] ?(?:\d+|{_ATTRIBUTE}))*|Sort sujet|Pouvoir de l’objet"
        r"|Test de [Ff]rayeur|[Ss]péciale?|[Aa]ucune)"
    ),
}

# Capitalised words that open a sentence but never a field value (rule step 2).
_OPENERS = frozenset(
    {
        *("Le", "La", "Les", "Un", "Une", "Des", "Du", "Ce", "Cet", "Cette", "Ces", "Ceci"),
        *("Cela", "Il", "Elle", "Ils", "Elles", "On", "Si", "Au", "Aux", "En", "Pour"),
        *("Lorsque", "Quand", "Tout", "Toute", "Tous", "Toutes", "Chaque", "Dans", "Sur"),
        *("Avec", "Sans", "Par"),
    }
)
# Capitalised game abbreviations that can sit inside a value (not a sentence start).
_ABBREVIATIONS = frozenset({"San", "Vol", "For", "Dex", "Int", "Per", "Niv", "Magerie"})
_APOSTROPHES = "’'"


def _key_id(key: str) -> str:
    return slugify(key).replace("-", "")


def _is_sentence_char(rest: str) -> bool:
    """True if ``rest`` (text after a candidate value) starts like a description."""
    if not rest:
        return True
    c = rest[0]
    if c.isupper() or c.isdigit() or c in '_*«"•[':
        return True
    return c in "-+±−" and len(rest) > 1 and rest[1].isdigit()


def _is_title_word(word: str) -> bool:
    """A capitalised word whose other letters are lowercase (``Matériel``, ``L’initiateur``)."""
    core = word.strip('«»"().,;:!?')
    letters = [c for c in core if c.isalpha()]
    if not letters or not core[0].isupper() or core in _ABBREVIATIONS:
        return False
    if len(letters) == 1:
        # Single capitals are mostly roman numerals ("niv I"); "À"/"A" open sentences.
        return core in ("À", "A")
    return all(c.islower() for c in letters[1:])


def _is_opener(word: str) -> bool:
    if word in _OPENERS:
        return True
    # "L’initiateur", "D’autres", "S’il", "N’a": an elided article or pronoun.
    return len(word) > 2 and word[0] in "LDSNJ" and word[1] in _APOSTROPHES


@dataclass(frozen=True)
class _Split:
    length: int  # characters of the tail that belong to the value
    status: Literal["vocabulary", "ambiguous", "fallback", "empty"]


_WORD_RE = re.compile(r"\S+")
_MAX_VALUE_WORDS = 16


def split_tail(key: str, tail: str, names: frozenset[str]) -> _Split:
    """Apply the documented split rule to the tail of the last field of an entry."""
    words = list(_WORD_RE.finditer(tail))
    if not words:
        return _Split(0, "empty")
    key_id = _key_id(key)
    grammar = _VOCABULARY.get(key_id)
    candidates: list[int] = []
    # Known values are a few words long; longer prefixes cannot match and would cost O(n²).
    for i, match in enumerate(words[:_MAX_VALUE_WORDS]):
        end = match.end()
        value = re.sub(r"[ \t\r\n]+", " ", tail[:end])
        rest = tail[words[i + 1].start() :] if i + 1 < len(words) else ""
        known = grammar is not None and grammar.fullmatch(value) is not None
        if not known and key_id == "resistance":
            known = value in names
        if known and _is_sentence_char(rest):
            candidates.append(end)
    if len(candidates) == 1:
        return _Split(candidates[0], "vocabulary")
    if candidates:
        return _Split(candidates[-1], "ambiguous")
    if _is_opener(words[0].group()):
        return _Split(0, "empty")
    for i in range(1, len(words)):
        current = words[i].group()
        previous = words[i - 1].group()
        after_stop = previous.endswith((".", "!", "?"))
        if (
            _is_title_word(current)
            or current.startswith(("_", "**", "•"))
            or (after_stop and (current[0].isupper() or current[0].isdigit()))
        ):
            return _Split(words[i - 1].end(), "fallback")
    return _Split(words[-1].end(), "fallback")
