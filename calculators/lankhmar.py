"""Épées et PMT (Lankhmar) : corruption, altérations, points d’héroïsme, rituels et folie."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Final, Literal

from regles.kit.errors import CalculatorInputError
from regles.kit.schema import (
    Calculator,
    Chart,
    Choice,
    Field,
    JsonDict,
    Output,
    Values,
    fmt_number,
    probability,
    seed_field,
)

__all__ = [
    "ALTERATIONS",
    "CALCULATORS",
    "CORRUPTION_TIER_MALUS_NOTE",
    "HORROR_EFFECTS",
    "MADNESS_EFFECTS",
    "POINTS_PER_TIER",
    "CorruptionState",
    "Situation",
    "corruption_check_failure",
    "corruption_state",
    "heroism_points",
    "madness_points_law",
    "madness_thresholds",
    "ritual_hours",
    "roll_alteration",
    "tier_malus",
    "tier_wisdom_lost",
]

Situation = Literal["horrible", "insoutenable"]

CORRUPTION_TIER_MALUS_NOTE: Final = (
    "Le texte dit que les effets des paliers sont cumulatifs et donne un malus de −1 au "
    "palier 2 et encore −1 au palier 3, mais son exemple annonce −1 pour trois paliers. "
    "Le calculateur suit la règle, comme pour les autres contradictions entre une règle et "
    "son exemple : les malus s’additionnent (−1 au palier 2, −2 au palier 3, puis −2 de plus "
    "à chaque palier)."
)

POINTS_PER_TIER = 10
_D20 = 20

ALTERATIONS: tuple[str, ...] = (
    "Le PJ parle de lui à la troisième personne.",
    "Le PJ a la langue noire.",
    "Le PJ attire la vermine dans un rayon de : cafards, rats, etc.",
    "Le PJ a les yeux injectés de sang.",
    "Le PJ a des marques bleuâtres sur tout le corps.",
    "Parfois, la voix du PJ change comme si quelqu’un d’autre parlait par sa bouche.",
    "Le PJ a un appétit démesuré.",
    "Le PJ bave constamment et postillonne quand il parle.",
    "Une odeur légèrement cadavérique émane du PJ.",
    "Le rire du PJ est anormalement strident.",
    (
        "Le PJ éprouve une phobie à l’égard d’un type d’animal ou d’une situation. Il subit "
        "l’effet du sort Effroi en présence de sa phobie."
    ),
    (
        "Le PJ devient épuisé (‒ 2 aux jets d’attaque et de dommages) à la lumière du soleil et "
        "ne peut se reposer que dans le noir complet. Par contre, il voit désormais par "
        "infravision jusqu’à 18 m."
    ),
    (
        "La voix du PJ est horriblement altérée : par exemple, elle devient croassante ou "
        "sifflante. Selon le contexte, cela peut le rendre plus intimidant ou amener les gens à "
        "l’éviter."
    ),
    (
        "Le personnage devient d’une maigreur squelettique, quel que soit son régime alimentaire. "
        "Il perd 2 en FOR, mais n’a plus besoin que de la moitié de l’alimentation d’un humain "
        "normal."
    ),
    "La peau du personnage prend une teinte cireuse.",
    "La colonne vertébrale du PJ se déforme, forçant le PJ à marcher courbé.",
    (
        "Les animaux autres que les rongeurs aboient, bêlent, feulent, grognent, mugissent ou "
        "fuient lorsqu’ils remarquent le personnage."
    ),
    (
        "Le PJ éprouve une phobie à l’égard d’un type d’animal ou d’une situation. Il subit "
        "l’effet du sort Effroi en présence de sa phobie."
    ),
    "Une aura malsaine émane du PJ, qui met mal à l’aise tous ceux qui sont à 3 m ou moins de lui.",
    "Les doigts du personnage suintent de pus.",
)

HORROR_EFFECTS: tuple[str, ...] = (
    "Paralysie pendant 1d6 rounds",
    "Fuite pendant 1d6 rounds",
    "Évanouissement pendant 1d6 rounds",
    "Panique ou hurle de peur",
    "Crise de nerfs : pleurs, cris, rires incontrôlés",
    "Incapacité à parler de façon cohérente pendant 1 tour",
    "Choc : considéré comme épuisé (‒ 2 aux jets d’attaque et de dommages) pendant 1d6 heures",
    "Accès de rage",
    "Nausée, avec vomissements ou incontinence.",
    "Folie temporaire pendant 1d6 rounds (consulter la colonne Folie)",
)

MADNESS_EFFECTS: tuple[str, ...] = (
    "Phobie sérieuse",
    (
        "Délire : parle à un compagnon imaginaire, croit être dans le paradis ou l’enfer de son "
        "dieu, etc."
    ),
    "Comportement obsessionnel",
    "Changement radical de personnalité",
    "Amnésie complète",
    "Hallucinations récurrentes",
    "Paranoïa aigüe",
    "Catatonie ou dépression sévère",
    "Personnalités multiples",
    "Changements d’humeur extrêmes",
)
_TEMPORARY_MADNESS = 10

# Madness points gained on a failed saving throw: (dice count, sides, bonus).
_MADNESS_DICE: Mapping[Situation, tuple[int, int]] = MappingProxyType(
    {"horrible": (3, 0), "insoutenable": (4, 1)}
)


# --- Corruption ---------------------------------------------------------------


def _tier_step(tier: int) -> int:
    # Malus listed by each tier: none at 1, −1 at 2 and 3, −2 at 4 and after.
    if tier <= 1:
        return 0
    return 1 if tier <= 3 else 2


def tier_malus(tier: int) -> int:
    """Total INT-check malus against corruption at a tier (cumulative: 0, 1, 2, 4, 6, …)."""
    return sum(_tier_step(t) for t in range(1, tier + 1))


def tier_wisdom_lost(tier: int) -> int:
    """WIS points lost at a tier: one per tier from the third."""
    return max(0, tier - 2)


@dataclass(frozen=True)
class CorruptionState:
    """Effects of a number of corruption points."""

    points: int
    tier: int
    int_malus: int
    alterations: int
    wisdom_lost: int


def corruption_state(points: int) -> CorruptionState:
    """A new tier every 10 points; effects of every tier reached add up."""
    tier = points // POINTS_PER_TIER
    return CorruptionState(points, tier, tier_malus(tier), tier, tier_wisdom_lost(tier))


def corruption_check_failure(intelligence: int, spell_level: int, tier: int) -> Fraction:
    """Chance of gaining a corruption point when learning or casting a spell.

    Only spells above level 1 call for the check. PMT checks are rolled under
    the ability: the INT check succeeds on d20 ≤ INT − (spell level + tier
    malus); failing gives 1 point. No automatic success or failure is assumed.
    """
    if spell_level <= 1:
        return Fraction(0)
    target = intelligence - spell_level - tier_malus(tier)
    return 1 - Fraction(min(_D20, max(0, target)), _D20)


def roll_alteration(rng: random.Random, suffered: Iterable[int]) -> tuple[int, list[int]]:
    """Roll on the alteration table, rerolling results already suffered.

    Results are compared by number: 11 and 18 read the same (a phobia) but
    the second one is another phobia, so both may be suffered.
    """
    done = set(suffered)
    if done.issuperset(range(1, _D20 + 1)):
        # Rerolling could never end: there is nothing left to suffer.
        raise ValueError("every alteration has already been suffered")
    rolls: list[int] = []
    while True:
        roll = rng.randint(1, _D20)
        rolls.append(roll)
        if roll not in done:
            return roll, rolls


# --- Héroïsme et rituels ---------------------------------------------------------


def heroism_points(level: int) -> int:
    """Half the level rounded down, 1 minimum."""
    return max(1, level // 2)


def ritual_hours(spell_levels: Iterable[int]) -> Fraction:
    """Half an hour per spell level prepared."""
    return Fraction(sum(spell_levels), 2)


# --- Folie -----------------------------------------------------------------------


def madness_points_law(situation: Situation, extra: int = 0) -> dict[int, Fraction]:
    """Law of the madness points gained: 1d3 (horrible) or 1d4+1 « ou plus » (insoutenable).

    The text gives the « ou plus » to the unbearable situation only: ``extra``, the points
    the MdT adds, must be 0 in a horrible one.
    """
    if extra and situation != "insoutenable":
        raise ValueError("extra points apply to an unbearable situation only")
    sides, bonus = _MADNESS_DICE[situation]
    return {face + bonus + extra: Fraction(1, sides) for face in range(1, sides + 1)}


def madness_thresholds(current: int, gained: int, wisdom: int) -> int:
    """How many multiples of WIS the total reaches or passes (one Folie roll each)."""
    return (current + gained) // wisdom - current // wisdom


# --- Adaptateurs JSON ----------------------------------------------------------


def _rng(v: Values) -> random.Random:
    seed = v.get_opt_int("seed")
    return random.Random(seed) if seed is not None else random.Random()


def _h_corruption(v: Values) -> JsonDict:
    state = corruption_state(v.get_int("points"))
    wisdom = v.get_int("wis")
    spell_level = v.get_int("spell_level")
    intelligence = v.get_int("intelligence")
    remaining = max(0, wisdom - state.wisdom_lost)
    required = spell_level > 1
    out: JsonDict = {
        "tier": state.tier,
        "int_malus": state.int_malus,
        "int_malus_text": fmt_number(-state.int_malus) if state.int_malus else "0",
        "alterations": state.alterations,
        "wis_lost": state.wisdom_lost,
        "wis": remaining,
        "consumed": remaining == 0,
        "next_tier_at": (state.tier + 1) * POINTS_PER_TIER,
        "check_required": required,
        "check_target": intelligence - spell_level - state.int_malus if required else None,
    }
    out.update(
        probability("p_gain", corruption_check_failure(intelligence, spell_level, state.tier))
    )
    # For the chart: the d20 of the INT check, a point gained from `gain_from` on (21: never).
    target = out["check_target"]
    if isinstance(target, int):
        out["check_roll"] = {
            "totals": list(range(1, _D20 + 1)),
            "p": [float(Fraction(1, _D20))] * _D20,
        }
        out["gain_from"] = min(_D20 + 1, max(1, target + 1))
    else:
        out["check_roll"] = None
        out["gain_from"] = None
    return out


def _h_alteration(v: Values) -> JsonDict:
    suffered = sorted(set(v.get_int_list("already_suffered")))
    if len(suffered) >= _D20:
        raise CalculatorInputError(
            "already_suffered", "Le PJ a déjà subi toutes les altérations de la table."
        )
    result, rolls = roll_alteration(_rng(v), suffered)
    out: JsonDict = {
        "result": result,
        "text": ALTERATIONS[result - 1],
        "rolls": rolls,
        "rerolls": len(rolls) - 1,
        "already_suffered": suffered,
    }
    out.update(probability("p_each", Fraction(1, _D20 - len(suffered))))
    return out


def _h_heroism(v: Values) -> JsonDict:
    return {"points": heroism_points(v.get_int("level"))}


def _h_ritual(v: Values) -> JsonDict:
    hours = ritual_hours(v.get_int_list("spell_levels"))
    minutes = int(hours * 60)
    text = f"{minutes // 60} h" + (f" {minutes % 60:02d}" if minutes % 60 else "")
    return {
        "hours": float(hours),
        "minutes": minutes,
        "text": text,
        # Preparation may take place during the eight-hour rest.
        "fits_in_rest": hours <= 8,
    }


def _situation(value: str) -> Situation:
    return "insoutenable" if value == "insoutenable" else "horrible"


def _h_madness(v: Values) -> JsonDict:
    rng = _rng(v)
    situation = _situation(v.get_str("situation"))
    extra = v.get_int("extra_points")
    if extra and situation != "insoutenable":
        raise CalculatorInputError(
            "extra_points",
            "Les points supplémentaires (« ou plus ») ne s’ajoutent qu’en situation "
            "insoutenable : une situation horrible donne 1d3 points.",
        )
    current = v.get_int("current_points")
    wisdom = v.get_int("wis")
    law = madness_points_law(situation, extra)
    given = v.get_opt_int("points_gained")
    gained_roll: int | None = None
    if given is None:
        sides, bonus = _MADNESS_DICE[situation]
        face = rng.randint(1, sides)
        gained_roll, gained = face, face + bonus + extra
    else:
        gained = given
    horror_roll = rng.randint(1, 10)
    temporary = rng.randint(1, 10) if horror_roll == _TEMPORARY_MADNESS else None
    crossed = madness_thresholds(current, gained, wisdom)
    folie = [rng.randint(1, 10) for _ in range(crossed)]
    if given is None:
        # Chance, before the roll, that the points gained call for a Folie roll.
        p_roll_due = sum(
            (p for g, p in law.items() if madness_thresholds(current, g, wisdom) > 0), Fraction(0)
        )
    else:
        # The points are known: a Folie roll is due or it is not, there is no chance left.
        p_roll_due = Fraction(1 if crossed else 0)
    out: JsonDict = {
        "gained": gained,
        "gained_roll": gained_roll,
        "total": current + gained,
        "horror_roll": horror_roll,
        "horror_text": HORROR_EFFECTS[horror_roll - 1],
        "temporary_madness_roll": temporary,
        "temporary_madness_text": None if temporary is None else MADNESS_EFFECTS[temporary - 1],
        "madness_rolls_due": crossed,
        "madness_rolls": [{"roll": r, "text": MADNESS_EFFECTS[r - 1]} for r in folie],
        "madness_text": " ; ".join(MADNESS_EFFECTS[r - 1] for r in folie) or None,
        "next_threshold": ((current + gained) // wisdom + 1) * wisdom,
    }
    out.update(probability("p_madness_roll", p_roll_due))
    return out


CALCULATORS = (
    Calculator(
        id="corruption",
        title="Corruption du magicien noir",
        headline=("tier", "p_gain"),
        description=(
            "Donne le palier de corruption, ses effets cumulés et le risque de gagner un point en "
            "lançant un sort."
        ),
        inputs=(
            Field("points", "Points de corruption", "int", default=0, min=0, max=1000),
            Field(
                "wis",
                "SAG (avant les pertes dues à la corruption)",
                "int",
                default=10,
                min=1,
                max=25,
                help="Le PJ est consumé par la magie quand sa SAG tombe à 0.",
            ),
            Field("intelligence", "INT", "int", default=13, min=1, max=25),
            Field(
                "spell_level",
                "Niveau du sort appris ou lancé",
                "int",
                default=2,
                min=1,
                max=9,
                help="Le jet d’INT n’est demandé que pour les sorts de niveau supérieur à 1 : "
                "réussi sur 1d20 ≤ INT − (niveau du sort + malus du palier).",
            ),
        ),
        outputs=(
            Output("tier", "Palier de corruption"),
            Output("int_malus_text", "Malus au jet d’INT contre la corruption"),
            Output("alterations", "Altérations subies", sentence=True),
            Output("wis_lost", "SAG perdue"),
            Output("consumed", "Consumé par la magie"),
            Output("p_gain", "Probabilité de gagner un point de corruption"),
            Output(
                "check_roll",
                "Jet d’INT contre la corruption",
                chart=Chart(
                    "Résultat du d20",
                    threshold="gain_from",
                    chance="p_gain",
                    chance_text="de gagner un point de corruption",
                ),
            ),
        ),
        handler=_h_corruption,
    ),
    Calculator(
        id="alteration",
        title="Table d’altération",
        headline=("result", "text"),
        rolled=("result", "text"),
        description="Tire une altération sur 1d20, en relançant celles que le PJ a déjà subies.",
        inputs=(
            Field(
                "already_suffered",
                "Altérations déjà subies",
                "int_list",
                default=(),
                min=1,
                max=_D20,
                max_items=_D20,
                help="Numéros (1 à 20) des résultats déjà obtenus.",
            ),
            seed_field(),
        ),
        outputs=(
            Output("result", "Résultat du d20"),
            Output("text", "Altération", sentence=True),
        ),
        handler=_h_alteration,
    ),
    Calculator(
        id="heroism_points",
        title="Points d’héroïsme",
        headline=("points",),
        description=(
            "Donne les points d’héroïsme de début de partie : la moitié du niveau, arrondie "
            "au-dessous, 1 au minimum."
        ),
        inputs=(Field("level", "Niveau", "int", default=1, min=1, max=36),),
        outputs=(Output("points", "Points d’héroïsme"),),
        handler=_h_heroism,
    ),
    Calculator(
        id="ritual_time",
        title="Durée des rituels",
        headline=("text", "fits_in_rest"),
        description=(
            "Calcule la durée de préparation des sorts : une demi-heure par niveau de sort."
        ),
        inputs=(
            Field(
                "spell_levels",
                "Niveaux des sorts préparés",
                "int_list",
                default=(1, 1, 2),
                min=1,
                max=9,
                max_items=100,
                help="Un niveau par sort préparé.",
            ),
        ),
        outputs=(
            Output("text", "Durée du rituel"),
            Output("hours", "Durée en heures", "h"),
            Output("fits_in_rest", "Tient dans le repos de huit heures"),
        ),
        handler=_h_ritual,
    ),
    Calculator(
        id="madness",
        title="Points de folie",
        headline=("total", "madness_rolls_due", "p_madness_roll"),
        rolled=("gained", "total", "horror_text", "madness_rolls_due", "madness_text"),
        description=(
            "Ajoute les points de folie d’un jet de sauvegarde raté et indique les jets sur la "
            "colonne Folie."
        ),
        inputs=(
            Field(
                "situation",
                "Situation",
                "choice",
                default="horrible",
                choices=(
                    Choice("horrible", "Horrible (1d3 points)"),
                    Choice("insoutenable", "Insoutenable (1d4+1 points)"),
                ),
            ),
            Field("current_points", "Points de folie actuels", "int", default=0, min=0, max=10_000),
            Field("wis", "SAG", "int", default=10, min=1, max=25),
            Field(
                "extra_points",
                "Points supplémentaires (situation insoutenable)",
                "int",
                default=0,
                min=0,
                max=20,
                help=(
                    "Situation insoutenable seulement (« 1d4+1 points de folie ou plus ») : "
                    "points ajoutés au jet au gré du MdT. Une situation horrible donne 1d3 "
                    "points, sans plus."
                ),
            ),
            Field(
                "points_gained",
                "Points gagnés (jet déjà fait)",
                "int",
                required=False,
                min=0,
                max=100,
                help=(
                    "Facultatif : remplace le jet de points de folie (points supplémentaires "
                    "compris) ; vide, les points sont tirés ; donnés, la probabilité d’un jet "
                    "de Folie vaut 100 % ou 0 %."
                ),
            ),
            seed_field(),
        ),
        outputs=(
            Output("gained", "Points de folie gagnés"),
            Output("total", "Total de points de folie"),
            Output("horror_text", "Effet de l’Horreur", sentence=True),
            Output("madness_rolls_due", "Jets sur la colonne Folie"),
            Output("madness_text", "Effet de Folie", sentence=True),
            Output("p_madness_roll", "Probabilité d’un jet de Folie"),
        ),
        handler=_h_madness,
    ),
)

# How a contradiction of the documents was settled, shown on the rule page (```note).
NOTES: Mapping[str, str] = MappingProxyType({"corruption_tier_malus": CORRUPTION_TIER_MALUS_NOTE})
