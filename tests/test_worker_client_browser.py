"""The calculators' worker under load and hostile inputs (worker-client.js): a flood of slow
calls is answered by the same worker, or refused past the queue's bound with a French
message; inputs that cannot be sent get the kit's input error, before anything is sent."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import browser_run, rules_of_test_site

pytestmark = [pytest.mark.browser, pytest.mark.python]

RULES = rules_of_test_site()
# Some 5 ms in Pyodide: a thousand of them hold the worker seconds, past its liveness delay.
SLOW = {"expression": "20d20", "seed": 1}


@pytest.fixture(scope="module")
def page(tools_page: Any) -> Any:
    return tools_page


# All at once, each answer or error counted: {ok, errors: {message: count}, same worker}.
FLOOD = """async ([count, inputs]) => {
    const before = window.rules.worker();
    const calls = [];
    for (let i = 0; i < count; i++) calls.push(window.rules.run("dice", inputs));
    const settled = await Promise.allSettled(calls);
    const errors = {};
    for (const s of settled) {
        if (s.status === "rejected") {
            const key = `${s.reason.kind}: ${s.reason.message}`;
            errors[key] = (errors[key] || 0) + 1;
        }
    }
    const ok = settled.filter((s) => s.status === "fulfilled");
    return {ok: ok.length, total: ok.length ? ok[0].value.roll_total : null, errors,
            same: window.rules.worker() === before};
}"""


def test_a_flood_of_slow_calls_is_answered_by_the_same_worker(page: Any) -> None:
    # Between one answer and the next « started », nothing runs in the worker: judged by
    # the queue, it looked dead, and was replaced with most calls lost.
    flood = page.evaluate(FLOOD, [1000, SLOW])
    assert flood == {
        "ok": 1000,
        "total": RULES.run("dice", SLOW)["roll_total"],
        "errors": {},
        "same": True,
    }


def test_past_the_bound_calls_are_refused_with_a_message(page: Any) -> None:
    page.evaluate("() => { window.rules.maxWaiting = 5; }")
    try:
        flood = page.evaluate(FLOOD, [12, SLOW])
    finally:
        page.evaluate("() => { window.rules.maxWaiting = 1000; }")
    refused = (
        "busy: Trop de calculs sont demandés à la fois\u00a0: celui-ci n’a pas été fait\u00a0;"
        " réessayez dans un instant."
    ).replace("\u00a0", " ")
    assert flood["ok"] == 5 and flood["same"] is True
    assert flood["errors"] == {refused: 7}
    # The queue drained, the next call is answered at once.
    assert browser_run(page, "modificateur", {"score": 18})["ok"] is True


# Built in the page: values no JSON holds, or that throw as they are read.
UNSENDABLE = {
    "cyclique": "(() => { const v = {score: 10}; v.self = v; return v; })()",
    "profond": "({score: JSON.parse('['.repeat(100000) + ']'.repeat(100000))})",
    "accesseur": "({get score() { throw new Error('accesseur'); }})",
    "proxy": "new Proxy({score: 10}, {ownKeys() { throw new Error('proxy'); }})",
    "bigint": "({score: 10n})",
    "fonction": "({score: () => 10})",
    "noeud": "({score: document.body})",
}
CANNOT_SEND = "Ces valeurs ne peuvent pas être envoyées au calculateur."
TOO_DEEP = "Les valeurs envoyées sont trop imbriquées (au plus 20 niveaux de listes et d’objets)."
EXPECTED = {
    "cyclique": ("self", CANNOT_SEND),
    "profond": (None, TOO_DEEP),
    "accesseur": (None, CANNOT_SEND),
    "proxy": (None, CANNOT_SEND),
    "bigint": ("score", CANNOT_SEND),
    "fonction": ("score", CANNOT_SEND),
    "noeud": ("score", CANNOT_SEND),
}


def test_inputs_that_cannot_be_sent_get_the_kits_input_error(page: Any) -> None:
    page.evaluate("() => { window.avant = window.rules.worker(); }")
    answers = {
        case: page.evaluate(
            f"""() => {{
                let call;
                try {{ call = window.rules.run("modificateur", {built}); }}
                catch (e) {{ return {{thrown: String(e)}}; }}  // never thrown, always refused
                return call.then(() => ({{ok: true}}), (e) => ({{ok: false,
                    error: e instanceof window.rules.RulesError, kind: e.kind, field: e.field,
                    message: e.message}}));
            }}"""
        )
        for case, built in UNSENDABLE.items()
    }
    assert answers == {
        case: {"ok": False, "error": True, "kind": "input", "field": field, "message": message}
        for case, (field, message) in EXPECTED.items()
    }
    # The same worker answers the next call: nothing reached it.
    assert page.evaluate("() => window.rules.worker() === window.avant")
    assert browser_run(page, "modificateur", {"score": 18})["ok"] is True
    # A Proxy that reads as data is data.
    assert (
        page.evaluate(
            """() => window.rules.run("modificateur", new Proxy({score: 18}, {}))
            .then((outputs) => outputs.modifier)"""
        )
        == RULES.run("modificateur", {"score": 18})["modifier"]
    )
