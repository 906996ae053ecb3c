"""The main pages as people read them: which pages, as whom, and their visible
text (what a browser shows or reads aloud: text nodes, and the ``title``,
``alt``, ``aria-label`` and ``placeholder`` attributes; never scripts, styles or
the values forms send). Shared by the "nothing raw", dates and standards tests.
"""
from __future__ import annotations

from html.parser import HTMLParser

READ_ATTRS = {"title", "alt", "aria-label", "placeholder"}
SKIP = {"script", "style", "template"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in SKIP:
            self._skip += 1
        for name, value in attrs:
            if name in READ_ATTRS and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in SKIP and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "\n".join(parser.parts)


def demo_pages(role: str) -> list[str]:
    """The main pages of the demo (``loaddemo``) that ``role`` may open:
    ``anon``, ``player`` (ivan) or ``gm`` (master)."""
    from battles.models import Battle
    from campaign.models import Campaign, Character
    from rosters.models import Roster

    campaigns = list(Campaign.objects.order_by("pk").values_list("pk", flat=True))
    battles = list(Battle.objects.order_by("pk").values_list("pk", flat=True))
    ivan = Character.objects.filter(owner__username="ivan").values_list("pk", flat=True)
    pages = ["/"]
    for c in campaigns:
        pages += [f"/campaigns/{c}/", f"/campaigns/{c}/standings/", f"/campaigns/{c}/chronicle/"]
    pages += [f"/battles/{b}/" for b in battles]
    pages += [f"/characters/{c}/" for c in Character.objects.order_by("pk").values_list("pk", flat=True)]
    if role == "anon":
        return pages + ["/accounts/login/", "/accounts/signup/"]
    rosters = Roster.objects.order_by("pk")
    if role == "player":
        rosters = rosters.filter(character__in=ivan)
    pages += ["/characters/", "/rosters/", "/rosters/new/", f"/campaigns/{campaigns[0]}/join/"]
    pages += [f"/rosters/{r}/" for r in rosters.values_list("pk", flat=True)]
    if role == "gm":
        pages += [f"/battles/{b}/setup/" for b in battles] + [f"/campaigns/{campaigns[0]}/battles/new/"]
    return pages
