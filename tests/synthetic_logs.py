"""The synthetic logs (``battles.engine.synthetic``, ``battles.engine.fow.synthetic``) as a client sends them."""
from __future__ import annotations


def entered(log):
    """The log with every die as the table entered it: a client sends no face of a die rolled by the service
    (``dice_commit.refuse_service_dice``), and each path's battle has its own secret to derive such dice from."""
    def walk(data):
        if isinstance(data, dict):
            if data.get("source") == "rolled":
                return {"value": data["value"], "source": "entered"}
            return {k: walk(v) for k, v in data.items()}
        if isinstance(data, list):
            return [walk(v) for v in data]
        return data

    return [e.__class__(e.seq, e.type, walk(e.data), e.version) for e in log]
