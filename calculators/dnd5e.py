"""Règles de D&D 5e (SRD 5.2) : caractéristiques, maîtrise, tests d20, dégâts, soins, grille."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

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
)

__all__ = [
    "AMOUNT_MAX",
    "CALCULATORS",
    "CHALLENGE_RATINGS",
    "DEATH_SAVE_OUTCOMES",
    "HP_MAX",
    "SQUARE_SIZE_M",
    "D20Odds",
    "DamageResult",
    "DeathSaveOdds",
    "GridResult",
    "HealingResult",
    "Mode",
    "ability_modifier",
    "apply_damage",
    "apply_healing",
    "d20_odds",
    "death_save_odds",
    "grid_squares",
    "kept_d20",
    "modified_damage",
    "parse_challenge_rating",
    "proficiency_bonus",
    "proficiency_bonus_for_cr",
    "signed",
]

Mode = Literal["normal", "advantage", "disadvantage"]

SQUARE_SIZE_M = Fraction(3, 2)

# Challenge ratings below 1 are fractions in the rules; they are kept as the
# strings printed in stat blocks so that the form can offer them as choices.
CHALLENGE_RATINGS: tuple[str, ...] = ("0", "1/8", "1/4", "1/2", *(str(n) for n in range(1, 31)))

_CR_TEXT = re.compile(r"^\s*(\d{1,2})(?:[.,](\d{1,3}))?\s*$|^\s*(\d)\s*/\s*(\d)\s*$")


HP_MAX = 10_000
AMOUNT_MAX = 100_000


def signed(value: int) -> str:
    """Format a modifier as printed in the rules: "+2", "+0", "−1" (typographic minus)."""
    return f"+{value}" if value >= 0 else f"\u2212{-value}"


# --- Caractéristiques et maîtrise ------------------------------------------------


def ability_modifier(score: int) -> int:
    """Modifier of an ability score: (score − 10) / 2 rounded down (SRD table)."""
    return (score - 10) // 2


def proficiency_bonus(level: int) -> int:
    """Proficiency bonus of a character level (or of a challenge rating ≥ 1)."""
    # +2 at 1–4, then +1 every four levels or CR (5–8 → +3, …, 29–30 → +9).
    return 2 + (max(level, 1) - 1) // 4


def proficiency_bonus_for_cr(challenge_rating: Fraction) -> int:
    """Proficiency bonus of a monster: CR 0 to 4 (fractions included) give +2."""
    return proficiency_bonus(max(1, math.floor(challenge_rating)))


def parse_challenge_rating(value: object) -> object:
    """Normalise a challenge rating sent as a number (0.25) or text ("0,5") to "1/4", "1/2"…

    Anything not recognised is returned unchanged so that validation reports it.
    """
    fraction: Fraction | None = None
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if -1000 <= value <= 1000:
            fraction = Fraction(value)
    elif isinstance(value, float):
        if math.isfinite(value) and abs(value) <= 1000:
            fraction = Fraction(value)
    elif isinstance(value, str):
        # A bounded pattern keeps Fraction() away from texts like "1e999999".
        match = _CR_TEXT.match(value) if len(value) <= 12 else None
        if match is None:
            return value
        if match.group(3) is not None:
            den = int(match.group(4))
            if den == 0:
                return value
            fraction = Fraction(int(match.group(3)), den)
        else:
            fraction = Fraction(f"{match.group(1)}.{match.group(2) or '0'}")
    if fraction is None:
        return value
    return (
        str(fraction.numerator)
        if fraction.denominator == 1
        else f"{fraction.numerator}/{fraction.denominator}"
    )


# --- Tests d20 ----------------------------------------------------------------


@dataclass(frozen=True)
class D20Odds:
    """Exact chances of a d20 test."""

    p_success: Fraction
    p_single: Fraction
    p_critical: Fraction | None
    needed: int | None


def kept_d20(rolls: Sequence[int], mode: Mode) -> int:
    """The die kept among two d20 (SRD: with 18 and 3, advantage keeps 18, disadvantage 3)."""
    if mode == "advantage":
        return max(rolls)
    if mode == "disadvantage":
        return min(rolls)
    return rolls[0]


def _with_mode(p: Fraction, mode: Mode) -> Fraction:
    # Success is monotonic in the natural roll, so keeping the higher of two
    # dice succeeds unless both fail, and keeping the lower only if both succeed.
    if mode == "advantage":
        return 1 - (1 - p) ** 2
    if mode == "disadvantage":
        return p**2
    return p


def d20_odds(modifier: int, target: int, mode: Mode = "normal", attack: bool = False) -> D20Odds:
    """Chance that d20 + ``modifier`` reaches ``target`` (DD or CA).

    For an attack roll a natural 20 always hits and a natural 1 always misses;
    the SRD gives no such rule for ability checks and saving throws.
    """
    successes = []
    for face in range(1, 21):
        if attack and face == 20:
            ok = True
        elif attack and face == 1:
            ok = False
        else:
            ok = face + modifier >= target
        successes.append(ok)
    p_single = Fraction(sum(successes), 20)
    needed = next((face for face, ok in enumerate(successes, start=1) if ok), None)
    return D20Odds(
        p_success=_with_mode(p_single, mode),
        p_single=p_single,
        p_critical=_with_mode(Fraction(1, 20), mode) if attack else None,
        needed=needed,
    )


# --- Dégâts et soins ------------------------------------------------------------


@dataclass(frozen=True)
class DamageResult:
    """State of a creature after taking damage."""

    damage_taken: int
    temp_hp_absorbed: int
    temp_hp: int
    hp: int
    hp_lost: int
    unconscious: bool
    dead: bool
    massive_damage: bool
    death_save_failures: int


def modified_damage(
    amount: int,
    adjustment: int = 0,
    resistant: bool = False,
    vulnerable: bool = False,
    immune: bool = False,
) -> int:
    """Damage after the SRD order: adjustments, then Resistance, then Vulnerability."""
    if immune:
        return 0
    # "il est possible d'infliger 0 dégât, mais pas des dégâts négatifs"
    damage = max(0, amount + adjustment)
    if resistant:
        damage //= 2  # halved, rounded down like every division in the game
    if vulnerable:
        damage *= 2
    return damage


def apply_damage(
    hp: int,
    hp_max: int,
    amount: int,
    *,
    temp_hp: int = 0,
    adjustment: int = 0,
    resistant: bool = False,
    vulnerable: bool = False,
    immune: bool = False,
    critical: bool = False,
    death_save_failures: int = 0,
    monster: bool = False,
) -> DamageResult:
    """Apply damage to a creature following « Dégâts et soins » of the SRD 5.2.

    Temporary hit points absorb the damage first. A character dropped to 0 HP
    dies outright if the excess is at least its HP maximum (massive damage),
    otherwise falls unconscious; a monster simply dies at 0 HP. Damage taken
    at 0 HP counts as one failed death saving throw (two on a critical hit)
    and kills if it is at least the HP maximum. Damage fully absorbed by
    temporary hit points leaves real hit points untouched and so counts as no
    damage "at 0 HP" (no failure added).
    """
    damage = modified_damage(amount, adjustment, resistant, vulnerable, immune)
    absorbed = min(temp_hp, damage)
    remaining = damage - absorbed
    new_hp = max(0, hp - remaining)
    failures = death_save_failures
    massive = False
    dead = False
    if hp > 0:
        failures = 0  # death save counters only exist at 0 HP
        if remaining >= hp:
            if monster:
                dead = True
            elif remaining - hp >= hp_max:
                massive = dead = True
    elif monster:
        dead = True
    elif remaining > 0:
        failures += 2 if critical else 1
        if remaining >= hp_max:
            massive = True
        dead = massive or failures >= 3
    return DamageResult(
        damage_taken=damage,
        temp_hp_absorbed=absorbed,
        temp_hp=temp_hp - absorbed,
        hp=new_hp,
        hp_lost=hp - new_hp,
        unconscious=new_hp == 0 and not dead,
        dead=dead,
        massive_damage=massive,
        death_save_failures=min(failures, 3),
    )


@dataclass(frozen=True)
class HealingResult:
    """State of a creature after healing."""

    hp: int
    healed: int
    wasted: int
    regains_consciousness: bool


def apply_healing(hp: int, hp_max: int, amount: int) -> HealingResult:
    """Add healed hit points, capped at the maximum (the excess is lost)."""
    new_hp = min(hp_max, hp + amount)
    return HealingResult(
        hp=new_hp,
        healed=new_hp - hp,
        wasted=amount - (new_hp - hp),
        regains_consciousness=hp == 0 and new_hp > 0,
    )


# --- Jets de sauvegarde contre la mort -------------------------------------------


@dataclass(frozen=True)
class DeathSaveOdds:
    """Exact outcome chances of the death saving throws still to roll."""

    p_stable: Fraction
    p_dead: Fraction
    p_regain_hp: Fraction
    expected_rolls: Fraction


# d20 faces: 1 → two failures, 2–9 → one failure, 10–19 → one success, 20 → 1 HP.
_P_NAT1 = Fraction(1, 20)
_P_FAIL = Fraction(8, 20)
_P_SUCCESS = Fraction(10, 20)
_P_NAT20 = Fraction(1, 20)


_Odds = tuple[Fraction, Fraction, Fraction, Fraction]


def _death_saves(successes: int, failures: int, memo: dict[tuple[int, int], _Odds]) -> _Odds:
    """(stable, dead, regain, expected rolls) from a state, memoised per call."""
    if successes >= 3:
        return Fraction(1), Fraction(0), Fraction(0), Fraction(0)
    if failures >= 3:
        return Fraction(0), Fraction(1), Fraction(0), Fraction(0)
    key = (successes, failures)
    if key not in memo:
        outcomes = (
            (_P_NAT1, _death_saves(successes, failures + 2, memo)),
            (_P_FAIL, _death_saves(successes, failures + 1, memo)),
            (_P_SUCCESS, _death_saves(successes + 1, failures, memo)),
        )
        memo[key] = (
            sum((p * o[0] for p, o in outcomes), Fraction(0)),
            sum((p * o[1] for p, o in outcomes), Fraction(0)),
            _P_NAT20 + sum((p * o[2] for p, o in outcomes), Fraction(0)),
            1 + sum((p * o[3] for p, o in outcomes), Fraction(0)),
        )
    return memo[key]


# The outcomes as the chart of death_saves names them, in the order of its bars.
DEATH_SAVE_OUTCOMES = ("Stabilisé", "Reprend 1 PV", "Mort")


def death_save_odds(successes: int = 0, failures: int = 0) -> DeathSaveOdds:
    """Chances of ending Stabilised (3 successes), dead (3 failures) or back at 1 HP (a 20)."""
    stable, dead, regain, expected = _death_saves(successes, failures, {})
    return DeathSaveOdds(stable, dead, regain, expected)


# --- Quadrillage ----------------------------------------------------------------


@dataclass(frozen=True)
class GridResult:
    """Movement on a grid of 1.5 m squares."""

    movement_squares: int
    squares: int
    # Movement not spent: the Speed minus what the squares entered cost.
    leftover_m: Fraction


def grid_squares(speed_m: Fraction, difficult_terrain: bool = False) -> GridResult:
    """Squares a Speed covers: divide by 3 then double, rounded down (9 m → 6 squares).

    Entering a square of Difficult Terrain costs 2 squares of movement (any distance there
    costs double: 3 m for a 1.5 m square), so only half the squares (rounded down) can be
    entered, and the leftover is what the squares entered did not cost (4.5 m: one square
    for 3 m, 1.5 m left).
    """
    movement = math.floor(speed_m / SQUARE_SIZE_M)
    squares = movement // 2 if difficult_terrain else movement
    cost = SQUARE_SIZE_M * (2 if difficult_terrain else 1)
    return GridResult(movement, squares, speed_m - squares * cost)


# --- Adaptateurs JSON ----------------------------------------------------------


def _h_ability(v: Values) -> JsonDict:
    mod = ability_modifier(v.get_int("score"))
    return {"modifier": mod, "modifier_text": signed(mod)}


def _h_proficiency(v: Values) -> JsonDict:
    if v.get_str("by") == "cr":
        cr = Fraction(v.get_str("challenge_rating"))
        bonus = proficiency_bonus_for_cr(cr)
    else:
        bonus = proficiency_bonus(v.get_int("level"))
    return {"bonus": bonus, "bonus_text": signed(bonus)}


def _mode(v: Values) -> Mode:
    mode = v.get_str("mode")
    if mode == "advantage":
        return "advantage"
    if mode == "disadvantage":
        return "disadvantage"
    return "normal"


def _roll_kind(value: object) -> object:
    """The kind of a d20 roll; a boolean (the box this field was) reads as one."""
    if isinstance(value, bool):
        return "attack" if value else "check"
    return value


def _h_d20(v: Values) -> JsonDict:
    attack = v.get_str("attack") == "attack"
    odds = d20_odds(v.get_int("modifier"), v.get_int("target"), _mode(v), attack)
    out: JsonDict = {}
    out.update(probability("p_success", odds.p_success))
    out.update(probability("p_single", odds.p_single))
    if odds.p_critical is None:
        out.update({"p_critical": None, "p_critical_exact": None})
    else:
        out.update(probability("p_critical", odds.p_critical))
    out["needed"] = odds.needed
    return out


def _check_hp(v: Values) -> tuple[int, int]:
    hp, hp_max = v.get_int("hp"), v.get_int("hp_max")
    if hp > hp_max:
        raise CalculatorInputError(
            "hp", "Les points de vie actuels ne peuvent pas dépasser le maximum de points de vie."
        )
    return hp, hp_max


def _h_damage(v: Values) -> JsonDict:
    hp, hp_max = _check_hp(v)
    failures = v.get_int("death_save_failures")
    if failures and hp > 0:
        raise CalculatorInputError(
            "death_save_failures",
            "Les échecs aux jets de sauvegarde contre la mort ne comptent qu’à 0 point de vie.",
        )
    r = apply_damage(
        hp,
        hp_max,
        v.get_int("amount"),
        temp_hp=v.get_int("temp_hp"),
        adjustment=v.get_int("adjustment"),
        resistant=v.get_bool("resistant"),
        vulnerable=v.get_bool("vulnerable"),
        immune=v.get_bool("immune"),
        critical=v.get_bool("critical"),
        death_save_failures=failures,
        monster=v.get_bool("monster"),
    )
    return {
        "damage_taken": r.damage_taken,
        "temp_hp_absorbed": r.temp_hp_absorbed,
        "temp_hp": r.temp_hp,
        "hp": r.hp,
        "hp_lost": r.hp_lost,
        "unconscious": r.unconscious,
        "dead": r.dead,
        "massive_damage": r.massive_damage,
        "death_save_failures": r.death_save_failures,
        # "En péril": at or below half the maximum, no effect by itself.
        "bloodied": not r.dead and 2 * r.hp <= hp_max,
    }


def _h_healing(v: Values) -> JsonDict:
    hp, hp_max = _check_hp(v)
    r = apply_healing(hp, hp_max, v.get_int("amount"))
    return {
        "hp": r.hp,
        "healed": r.healed,
        "wasted": r.wasted,
        "regains_consciousness": r.regains_consciousness,
        "bloodied": 2 * r.hp <= hp_max,
    }


def _h_death_saves(v: Values) -> JsonDict:
    odds = death_save_odds(v.get_int("successes"), v.get_int("failures"))
    out: JsonDict = {}
    out.update(probability("p_stable", odds.p_stable))
    out.update(probability("p_dead", odds.p_dead))
    out.update(probability("p_regain_hp", odds.p_regain_hp))
    out.update(probability("p_survive", odds.p_stable + odds.p_regain_hp))
    # The law of the three outcomes, for the chart: surviving ones first.
    out["outcomes"] = {
        "labels": list(DEATH_SAVE_OUTCOMES),
        "p": [float(odds.p_stable), float(odds.p_regain_hp), float(odds.p_dead)],
        "highlight": [True, True, False],
    }
    e = odds.expected_rolls
    out["expected_rolls"] = float(e)
    out["expected_rolls_exact"] = f"{e.numerator}/{e.denominator}"
    return out


def _h_grid(v: Values) -> JsonDict:
    # repr() gives the shortest decimal of the float, so 4.5 or 10.5 stay exact.
    speed = Fraction(repr(v.get_float("speed_m")))
    r = grid_squares(speed, v.get_bool("difficult_terrain"))
    return {
        "squares": r.squares,
        "movement_squares": r.movement_squares,
        "distance_m": float(r.squares * SQUARE_SIZE_M),
        "leftover_m": float(r.leftover_m),
        "leftover_text": fmt_number(float(r.leftover_m)) + " m",
    }


def _hp_fields(hp_default: int) -> tuple[Field, Field]:
    return (
        Field(
            "hp", "Points de vie actuels", "int", default=hp_default, min=0, max=HP_MAX, unit="PV"
        ),
        Field(
            "hp_max", "Maximum de points de vie", "int", default=20, min=1, max=HP_MAX, unit="PV"
        ),
    )


_P = "Probabilité"

CALCULATORS = (
    Calculator(
        id="ability_modifier",
        title="Modificateur de caractéristique",
        headline=("modifier_text",),
        description="Donne le modificateur associé à une valeur de caractéristique.",
        inputs=(
            Field(
                "score",
                "Valeur de caractéristique",
                "int",
                default=10,
                min=1,
                max=30,
                # The Force the character keeps for the carrying calculator.
                offered=("encumbrance.strength",),
            ),
        ),
        outputs=(Output("modifier_text", "Modificateur"),),
        handler=_h_ability,
    ),
    Calculator(
        id="proficiency_bonus",
        title="Bonus de maîtrise",
        headline=("bonus_text",),
        description=(
            "Donne le bonus de maîtrise selon le niveau du personnage ou le facteur de puissance "
            "du monstre."
        ),
        inputs=(
            Field(
                "by",
                "Selon",
                "choice",
                default="level",
                choices=(
                    Choice("level", "Niveau de personnage"),
                    Choice("cr", "Facteur de puissance (FP)"),
                ),
            ),
            Field("level", "Niveau", "int", default=1, min=1, max=20),
            Field(
                "challenge_rating",
                "Facteur de puissance",
                "choice",
                default="1",
                choices=tuple(Choice(cr, f"FP {cr}") for cr in CHALLENGE_RATINGS),
                coerce=parse_challenge_rating,
                help="0, 1/8, 1/4, 1/2 puis 1 à 30 ; un nombre comme 0.25 est aussi accepté.",
            ),
        ),
        outputs=(Output("bonus_text", "Bonus de maîtrise"),),
        handler=_h_proficiency,
    ),
    Calculator(
        id="d20_test",
        title="Chances de réussite d’un test d20",
        headline=("p_success", "needed"),
        description=(
            "Calcule la probabilité exacte de réussir un test d20 : atteindre un DD, ou "
            "toucher une CA par un jet d’attaque."
        ),
        inputs=(
            Field("modifier", "Modificateur total", "int", default=0, min=-20, max=30),
            Field("target", "DD ou CA", "int", default=15, min=1, max=40),
            Field(
                "mode",
                "Avantage",
                "choice",
                default="normal",
                choices=(
                    Choice("normal", "Normal"),
                    Choice("advantage", "Avantage"),
                    Choice("disadvantage", "Désavantage"),
                ),
            ),
            # A choice in words, not a box to know to tick: an attack hits on a natural 20.
            # true and false (the box it was) still read as an attack and as a test.
            Field(
                "attack",
                "Type de jet",
                "choice",
                default="check",
                choices=(
                    Choice("check", "Test de caractéristique ou jet de sauvegarde"),
                    Choice("attack", "Jet d’attaque"),
                ),
                coerce=_roll_kind,
                help=(
                    "Sur un jet d’attaque, un 20 naturel touche toujours (coup critique) et un "
                    "1 naturel rate toujours."
                ),
            ),
        ),
        outputs=(
            Output("p_success", f"{_P} de réussite"),
            Output("needed", "Résultat minimal du d20"),
            Output("p_critical", f"{_P} de coup critique"),
        ),
        handler=_h_d20,
    ),
    Calculator(
        id="damage",
        title="Appliquer des dégâts",
        headline=("hp", "unconscious", "dead"),
        description=(
            "Applique des dégâts dans l’ordre des règles : ajustements, Résistance, "
            "Vulnérabilité, puis points de vie temporaires."
        ),
        inputs=(
            *_hp_fields(20),
            Field(
                "temp_hp",
                "Points de vie temporaires",
                "int",
                default=0,
                min=0,
                max=HP_MAX,
                unit="PV",
            ),
            Field("amount", "Dégâts infligés", "int", default=7, min=0, max=AMOUNT_MAX),
            Field(
                "adjustment",
                "Ajustements (bonus ou malus)",
                "int",
                default=0,
                min=-AMOUNT_MAX,
                max=AMOUNT_MAX,
                help="Appliqués en premier ; les dégâts ne descendent pas sous 0.",
            ),
            Field("resistant", "Résistance", "bool", default=False),
            Field("vulnerable", "Vulnérabilité", "bool", default=False),
            Field("immune", "Immunité", "bool", default=False),
            Field(
                "critical",
                "Coup critique",
                "bool",
                default=False,
                help=(
                    "À 0 point de vie, un coup critique compte pour deux échecs. Les dés doublés "
                    "sont déjà dans les dégâts saisis."
                ),
            ),
            Field(
                "death_save_failures",
                "Échecs aux jets de sauvegarde contre la mort",
                "int",
                default=0,
                min=0,
                max=2,
                help="Seulement à 0 point de vie.",
            ),
            Field(
                "monster",
                "Monstre",
                "bool",
                default=False,
                help="Un monstre meurt dès qu’il tombe à 0 point de vie.",
            ),
        ),
        outputs=(
            Output("damage_taken", "Dégâts subis", "PV"),
            Output("temp_hp", "Points de vie temporaires restants", "PV"),
            Output("hp", "Points de vie", "PV"),
            Output("unconscious", "Inconscient"),
            Output("dead", "Mort"),
            Output("death_save_failures", "Échecs aux jets de sauvegarde contre la mort"),
        ),
        handler=_h_damage,
    ),
    Calculator(
        id="healing",
        title="Appliquer des soins",
        headline=("hp", "healed"),
        description="Ajoute des points de vie récupérés sans dépasser le maximum.",
        inputs=(
            *_hp_fields(14),
            Field(
                "amount",
                "Points de vie récupérés",
                "int",
                default=8,
                min=0,
                max=AMOUNT_MAX,
                unit="PV",
            ),
        ),
        outputs=(
            Output("hp", "Points de vie", "PV"),
            Output("healed", "Points de vie réellement récupérés", "PV"),
            Output("regains_consciousness", "Reprend connaissance"),
        ),
        handler=_h_healing,
    ),
    Calculator(
        id="death_saves",
        title="Jets de sauvegarde contre la mort",
        headline=("p_stable", "p_regain_hp", "p_dead"),
        description=(
            "Calcule les chances exactes d’être stabilisé, de mourir ou de récupérer 1 point de "
            "vie sur un 20."
        ),
        inputs=(
            Field("successes", "Réussites actuelles", "int", default=0, min=0, max=2),
            Field("failures", "Échecs actuels", "int", default=0, min=0, max=2),
        ),
        outputs=(
            Output("p_stable", f"{_P} d’être stabilisé"),
            Output("p_regain_hp", f"{_P} de récupérer 1 point de vie (20 naturel)"),
            Output("p_dead", f"{_P} de mourir"),
            Output("expected_rolls", "Nombre moyen de jets restants"),
            Output(
                "outcomes",
                "Chances de chaque issue",
                chart=Chart("Issue des jets", chance="p_survive", chance_text="de survivre"),
            ),
        ),
        handler=_h_death_saves,
    ),
    Calculator(
        id="grid",
        title="Déplacement sur quadrillage",
        headline=("squares",),
        description=(
            "Convertit une Vitesse en cases de 1,50 m, en tenant compte du Terrain difficile."
        ),
        inputs=(
            Field("speed_m", "Vitesse", "float", default=9.0, min=0, max=300, step=1.5, unit="m"),
            Field(
                "difficult_terrain",
                "Terrain difficile",
                "bool",
                default=False,
                help="Chaque case de Terrain difficile coûte 2 cases de déplacement.",
            ),
        ),
        outputs=(
            Output("squares", "Cases"),
            Output("distance_m", "Distance parcourue", "m"),
        ),
        handler=_h_grid,
    ),
)
