"""The battle report: the log told turn by turn in readable sentences, in the
reader's language. Core events have their own sentence; every other type is
told by its vocabulary title and its facts."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battles import engine

SIDE = {"ru": {"attacker": "атакующие", "defender": "обороняющиеся", "draw": "ничья"},
        "en": {"attacker": "the attacker", "defender": "the defender", "draw": "a draw"}}


def _lang(language: str) -> str:
    return "ru" if (language or "ru").startswith("ru") else "en"


def _value(v: Any) -> str | None:
    """A payload value in a few words: dice as d20=N, nested objects by their
    id and dice, empty things left out."""
    if isinstance(v, dict):
        if "value" in v and "source" in v:
            return f"d20={v['value']}"
        if v and all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in v.values()):
            return ", ".join(f"{k}={x}" for k, x in v.items())
        parts = [str(x) for k, x in v.items() if isinstance(x, str) and x and k in ("fighter", "id", "unit", "vehicle")]
        parts += [f"d20={x['value']}" for x in v.values() if isinstance(x, dict) and "value" in x and "source" in x]
        return " ".join(parts) or None
    if isinstance(v, list):
        items = [x for x in (_value(i) for i in v) if x]
        return ", ".join(items) or None
    if v in ("", None, False):
        return None
    return str(v)


def _facts(data: dict[str, Any]) -> str:
    parts = []
    for k, v in data.items():
        text = _value(v)
        if text:
            parts.append(f"{k.replace('_', ' ')}: {text}")
    return "; ".join(parts)


def sentence(type_: str, data: dict[str, Any], language: str = "ru") -> str:
    lang = _lang(language)
    side = SIDE[lang]
    if type_ == "battle_started":
        return (f"Бой начался: {data['attacker']} атакуют, {data['defender']} обороняются; первыми ходят обороняющиеся."
                if lang == "ru" else
                f"The battle began: {data['attacker']} attack, {data['defender']} defend; the defender moves first.")
    if type_ == "turn_ended":
        return (f"«Ход»: {side[data['side']]} завершили ход {data['turn']}." if lang == "ru" else
                f"«Ход»: {side[data['side']]} ended turn {data['turn']}.")
    if type_ == "battle_ended":
        who = side.get(data["winner"], data["winner"])
        text = (f"Бой окончен, итог: {'ничья' if data['winner'] == 'draw' else 'победили ' + who}."
                if lang == "ru" else
                f"The battle ended: {'a draw' if data['winner'] == 'draw' else who + ' won'}.")
        return f"{text} {data.get('reason', '')}".strip()
    if type_ == "correction":
        return (f"Мастер отменил событие №{data['voids_seq']}: {data['reason']}" if lang == "ru" else
                f"The game master voided event #{data['voids_seq']}: {data['reason']}")
    entry = engine.REGISTRY.get(type_)
    title = (entry.title_ru if lang == "ru" else entry.title_en) if entry else type_
    facts = _facts(data)
    return f"{title}: {facts}." if facts else f"{title}."


@dataclass
class TurnChapter:
    number: int
    side: str
    lines: list[tuple[int, str, bool]]  # (seq, sentence, voided)


def report(events: list[Any], state: dict[str, Any], language: str = "ru") -> list[TurnChapter]:
    """Group the log's sentences by the turns recorded in the state."""
    voided = set(state.get("voided", []))
    chapters: list[TurnChapter] = [TurnChapter(0, "", [])]
    bounds = [(t["first_seq"], t["number"], t["side"]) for t in state.get("turns", [])]
    i = 0
    for e in events:
        while i < len(bounds) and e.seq >= bounds[i][0]:
            chapters.append(TurnChapter(bounds[i][1], bounds[i][2], []))
            i += 1
        chapters[-1].lines.append((e.seq, sentence(e.type, e.data, language), e.seq in voided))
    return [c for c in chapters if c.lines]


def final_state(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Per side: fighters by fate and vehicles lost (from the stored projection)."""
    out = []
    for side in ("defender", "attacker"):
        fate = {"alive": 0, "wounded": 0, "dead": 0, "captured": 0}
        for f in (state.get("fighters") or {}).values():
            if f.get("side") != side:
                continue
            key = ("dead" if f.get("dead") else "captured" if f.get("captured")
                   else "wounded" if f.get("wounded") else "alive")
            fate[key] += 1
        vehicles = [v for v in (state.get("vehicles") or {}).values() if v.get("side") == side]
        out.append({"side": side, **fate, "mustered": sum(fate.values()), "vehicles": len(vehicles),
                    "vehicles_destroyed": sum(1 for v in vehicles if v.get("destroyed"))})
    return out
