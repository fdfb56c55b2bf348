"""A game's words in French sentences: a noun with its singular, plural and gender, and what
French does to the words around it (articles, « de » and « à » contracted or elided, counts,
agreement of a past participle).

A database names its entries, their groups and the lists a player keeps in the game's own
words (« prière », « culte », « livre de prières »); every sentence the generator writes
about them is built here, so that none says « sort » unless the game does:

    >>> prayer = Noun("prière", "prières", "f")
    >>> prayer.count(2), prayer.count(0), prayer.of(), prayer.agreed("publié", 2)
    ('2 prières', 'aucune prière', 'de la prière', 'publiées')
    >>> Noun("almanach", "almanachs", "m").of()
    "de l’almanach"
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

__all__ = [
    "APOSTROPHE",
    "DEFAULT_WORDS",
    "ENTRY_ROLES",
    "GENERIC_WORDS",
    "Noun",
    "Words",
    "capitalized",
    "duration",
    "elides",
    "file_size",
    "words_from",
]

APOSTROPHE = "’"  # the site's typographic apostrophe
# Words in h whose h is « aspiré »: no elision (« le héros », « la harpe »). A short list of
# those a game is likely to name; any other word in h elides (« l’herbe », « l’hydre »).
ASPIRATED_H = frozenset(
    {
        "hache",
        "haillons",
        "haine",
        "hall",
        "halle",
        "hallebarde",
        "halo",
        "halte",
        "hamac",
        "hameau",
        "hameçon",
        "hampe",
        "hamster",
        "hanche",
        "handicap",
        "hangar",
        "hantise",
        "hardes",
        "hareng",
        "haricot",
        "harnais",
        "harpe",
        "harpie",
        "harpon",
        "hasard",
        "hausse",
        "haut",
        "hauteur",
        "havre",
        "havresac",
        "heaume",
        "hennissement",
        "herse",
        "heurt",
        "hibou",
        "hiérarchie",
        "hobbit",
        "hochet",
        "homard",
        "hongre",
        "honte",
        "hoquet",
        "horde",
        "horion",
        "houe",
        "houle",
        "housse",
        "houx",
        "hublot",
        "huche",
        "huguenot",
        "hulotte",
        "hune",
        "hurlement",
        "hussard",
        "hutte",
        "huée",
        "hâte",
        "hérisson",
        "héron",
        "héros",
        "hêtre",
    }
)


# Characters that are markup in the pages' Markdown or HTML: a word of the game is only text,
# and the generator writes it into hundreds of sentences, pages and scripts as it is.
MARKUP = frozenset("<>&*_`[]\\|#{}")


def _bare(word: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c)
    )


def elides(word: str) -> bool:
    """Whether « le », « la » and « de » lose their vowel before `word` (« l’almanach »)."""
    first = word.strip().split(" ", 1)[0].split("-", 1)[0]
    bare = _bare(first)
    if not bare:
        return False
    if bare[0] in "aeiouy":
        return True
    word = first.lower()
    singular = word[:-1] if word.endswith(("s", "x")) else word  # « des hangars »
    return bare[0] == "h" and word not in ASPIRATED_H and singular not in ASPIRATED_H


def file_size(count: int) -> str:
    """A size as the build's messages write it: « 812 octets », « 1,5 Ko », « 20 Mo »."""
    if count < 1000:
        return f"{count} octets"
    if count < 1000 * 1000:
        return f"{count / 1000:.1f} Ko".replace(".", ",").replace(",0 ", " ")
    return f"{count / 1000 / 1000:.1f} Mo".replace(".", ",").replace(",0 ", " ")


def duration(seconds: float, digits: int | None = 1) -> str:
    """A time as the build's messages write it: with `digits` decimals (« 0,02 s »), or with
    as few as it takes (None: « 5 s », « 2,5 s »)."""
    figure = f"{seconds:g}" if digits is None else f"{seconds:.{digits}f}"
    return f"{figure} s".replace(".", ",")


def capitalized(text: str) -> str:
    """The first letter in capital, the rest as it is: « livre de prières » → « Livre de
    prières »."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Noun:
    """A noun of the game: « sort », « sorts », masculine."""

    one: str
    many: str
    gender: str = "m"  # "m" or "f"

    def __post_init__(self) -> None:
        if self.gender not in ("m", "f"):
            raise ValueError(f"genre « {self.gender} » : « m » ou « f » attendu")
        if not self.one.strip() or not self.many.strip():
            raise ValueError("un nom a un singulier et un pluriel, non vides")
        for form in (self.one, self.many):
            signs = sorted(MARKUP.intersection(form))
            if signs:
                raise ValueError(
                    f"« {form} » contient {' '.join(signs)} : un mot du jeu est du texte, "
                    "sans balise ni signe de mise en forme"
                )

    @property
    def feminine(self) -> bool:
        return self.gender == "f"

    def word(self, n: int = 1) -> str:
        return self.one if n == 1 else self.many

    def count(self, n: int) -> str:
        """« 1 sort », « 3 sorts », « aucun sort », « aucune prière »."""
        if n == 0:
            return f"{'aucune' if self.feminine else 'aucun'} {self.one}"
        return f"{n} {self.word(n)}"

    def a(self) -> str:
        """« un sort », « une prière »."""
        return f"{'une' if self.feminine else 'un'} {self.one}"

    def _determined(self, n: int, plural: str, elided: str, feminine: str, masculine: str) -> str:
        """The noun after a determiner: `plural` before the plural, `elided` (ending with the
        apostrophe) before a vowel, else the feminine or masculine form."""
        if n != 1:
            return f"{plural} {self.many}"
        if elides(self.one):
            return f"{elided}{self.one}"
        return f"{feminine if self.feminine else masculine} {self.one}"

    def the(self, n: int = 1) -> str:
        """« le sort », « la prière », « l’almanach », « les sorts »."""
        return self._determined(n, "les", f"l{APOSTROPHE}", "la", "le")

    def of(self, n: int = 1) -> str:
        """« du sort », « de la prière », « de l’almanach », « des sorts »."""
        return self._determined(n, "des", f"de l{APOSTROPHE}", "de la", "du")

    def to(self, n: int = 1) -> str:
        """« au sort », « à la prière », « à l’almanach », « aux sorts »."""
        return self._determined(n, "aux", f"à l{APOSTROPHE}", "à la", "au")

    def kind(self, n: int = 2) -> str:
        """The noun, without article, after « de »: « (une liste) de sorts », « (un culte)
        de prières », « (un recueil) d’enchantements »; with n=1, « (une page) de collège »."""
        word = self.word(n)
        return f"d{APOSTROPHE}{word}" if elides(self.one) else f"de {word}"

    def every(self) -> str:
        """« tous les sorts », « toutes les prières »."""
        return f"{'toutes' if self.feminine else 'tous'} les {self.many}"

    def my(self) -> str:
        """« mon grimoire », « ma liste », « mon arme » (« mon » before a vowel)."""
        return f"{'ma' if self.feminine and not elides(self.one) else 'mon'} {self.one}"

    def this(self) -> str:
        """« ce sort », « cet almanach », « cette prière »."""
        if self.feminine:
            return f"cette {self.one}"
        return f"{'cet' if elides(self.one) else 'ce'} {self.one}"

    def its(self) -> str:
        """« son sort », « sa prière », « son arme » (« son » before a vowel)."""
        return f"{'sa' if self.feminine and not elides(self.one) else 'son'} {self.one}"

    def pronoun(self, n: int = 1) -> str:
        """« il », « elle », « ils », « elles »."""
        return ("elle" if self.feminine else "il") + ("s" if n > 1 else "")

    def object_pronoun(self) -> str:
        """« le », « la » (« exportez-le »)."""
        return "la" if self.feminine else "le"

    def that_one(self) -> str:
        """« celui », « celle » (« celui du lien »)."""
        return "celle" if self.feminine else "celui"

    def these(self) -> str:
        """« ceux-ci », « celles-ci »."""
        return "celles-ci" if self.feminine else "ceux-ci"

    def new(self) -> str:
        """« nouveau grimoire », « nouvelle liste », « nouvel almanach »."""
        if self.feminine:
            return f"nouvelle {self.one}"
        return f"{'nouvel' if elides(self.one) else 'nouveau'} {self.one}"

    def agreed(self, participle: str, n: int = 1) -> str:
        """A past participle or an adjective that agrees with `n` of this noun: « publié » →
        « publiés », « publiée », « publiées »; « mis » → « mis », « mise »; « illisible » →
        « illisibles »; « dernier » → « dernière »; « tel » → « telle »."""
        word = participle
        if self.feminine:
            if word.endswith("er"):
                word = word[:-2] + "ère"
            elif word.endswith("el"):
                word += "le"
            elif not word.endswith("e"):
                word += "e"
        if n > 1 and not word.endswith(("s", "x")):
            word += "s"
        return word


@dataclass(frozen=True)
class Words:
    """A database's words: an entry (« sort »), a group of entries (« collège ») and a list a
    player keeps (« grimoire »)."""

    entry: Noun
    group: Noun
    list: Noun


# The words of the export format's first tool, a spell database (its groups' description
# marker is « Description du collège »), and of a site's `spells:` block: the functions'
# defaults.
DEFAULT_WORDS = Words(
    entry=Noun("sort", "sorts", "m"),
    group=Noun("collège", "collèges", "m"),
    list=Noun("grimoire", "grimoires", "m"),
)
# The words of an entry of `databases:` that says none: no game's.
GENERIC_WORDS = Words(
    entry=Noun("entrée", "entrées", "f"),
    group=Noun("groupe", "groupes", "m"),
    list=Noun("liste", "listes", "f"),
)
ENTRY_ROLES = ("entry", "group", "list")


def words_from(data: object, defaults: Words = DEFAULT_WORDS) -> Words:
    """`words:` as a site writes it (each role `{one, many, gender}`, any left out keeps
    its word in `defaults`); raises ValueError with a French message."""
    if not isinstance(data, dict):
        raise ValueError("« words » attend entry, group et list, chacun {one, many, gender}")
    unknown = sorted(set(data) - set(ENTRY_ROLES))
    if unknown:
        raise ValueError(f"« words » : « {unknown[0]} » inconnu (entry, group ou list)")
    nouns = {}
    for role in ENTRY_ROLES:
        given = data.get(role)
        if given is None:
            nouns[role] = getattr(defaults, role)
            continue
        if not isinstance(given, dict) or not {"one", "many"} <= set(given):
            raise ValueError(f"« words.{role} » attend one, many et gender (m ou f)")
        extra = sorted(set(given) - {"one", "many", "gender"})
        if extra:
            raise ValueError(f"« words.{role} » : « {extra[0]} » inconnu (one, many, gender)")
        try:
            nouns[role] = Noun(str(given["one"]), str(given["many"]), str(given.get("gender", "m")))
        except ValueError as error:
            raise ValueError(f"« words.{role} » : {error}") from error
    return Words(**nouns)
