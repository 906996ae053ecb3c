"""Standings pages: read from projections at a constant query count, sortable,
and "as of battle N" by folding the log up to battle N."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import results
from battles.services import battle_create
from campaign import ledger, selectors, services
from campaign.models import AwardRule, CampaignEvent, CampaignProjection, Standing

from .test_results import cid, finish


@pytest.fixture
def two_battles(running, game_master):
    AwardRule.objects.filter(metric="battles_won").update(active=False)
    AwardRule.objects.create(metric="kills", threshold=1, promotion=True)
    b1 = battle_create(campaign=running, name="Первый бой", number=1)
    finish(b1, winner="attacker", credits={cid(running, "petrov"): {"kills": 2}, cid(running, "hans"): {"killed": 1}})
    results.battle_conclude(battle_id=b1.id)
    b2 = battle_create(campaign=running, name="Второй бой", number=2)
    finish(b2, winner="defender", credits={cid(running, "hans"): {"kills": 5}})
    for p in results.battle_conclude(battle_id=b2.id):
        services.proposal_decide(proposal=p, approve=True, by=game_master)
    return b1, b2


def queries(fn):
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.django_db
class TestStandings:
    def test_v_pp_6_prestige_is_the_rank_budget_plus_40_for_the_attacker(self, running):
        rows = {r.name: r for r in selectors.standings_table(campaign=running, sort="name")[0]}
        assert rows["Petrov"].prestige == 16 + 40  # sergeant, attacking side
        assert rows["Hans"].prestige == 45  # lieutenant, defending side
        assert rows["Fritz"].prestige == 8

    def test_rows_follow_the_log(self, running, two_battles):
        rows = {r.name: r for r in selectors.standings_table(campaign=running)[0]}
        assert (rows["Petrov"].kills, rows["Petrov"].battles) == (2, 1)
        assert (rows["Hans"].kills, rows["Hans"].casualties, rows["Hans"].battles) == (5, 1, 2)
        assert rows["Hans"].rank == "captain"  # promoted after battle 2

    def test_as_of_battle_1_shows_the_old_rank_and_totals(self, running, two_battles):
        rows = {r.name: r for r in selectors.standings_table(campaign=running, as_of=1)[0]}
        assert rows["Hans"].rank == "lieutenant" and rows["Hans"].kills == 0
        assert rows["Petrov"].rank == "sergeant"  # petrov's proposal from battle 1 was never decided
        view = selectors.campaign_view(campaign=running, as_of=1)
        assert view.sides["attacker"]["won"] == 1 and view.sides["defender"]["won"] == 0

    @pytest.mark.parametrize(("sort", "first"), [("kills", "Hans"), ("name", "Fritz"), ("rank", "Hans")])
    def test_sorting(self, running, two_battles, sort, first):
        rows, total = selectors.standings_table(campaign=running, sort=sort, descending=sort != "name")
        assert total == 4 and rows[0].name == first
        rows, _ = selectors.standings_table(campaign=running, as_of=2, sort=sort, descending=sort != "name")
        assert rows[0].name == first

    def test_incremental_projection_equals_a_rebuild_from_the_log(self, running, two_battles):
        before = sorted(Standing.objects.filter(campaign=running).values_list(
            "character_id", "side", "rank", "awards", "battles", "kills", "casualties", "prestige"))
        data = CampaignProjection.objects.get(campaign=running).data
        Standing.objects.filter(campaign=running).update(kills=999)
        services.campaign_projections_rebuild(campaign=running)
        after = sorted(Standing.objects.filter(campaign=running).values_list(
            "character_id", "side", "rank", "awards", "battles", "kills", "casualties", "prestige"))
        assert after == before and CampaignProjection.objects.get(campaign=running).data == data

    def test_the_as_of_fold_of_the_whole_log_equals_the_stored_projection(self, running, two_battles):
        last = CampaignEvent.objects.filter(campaign=running).order_by("-battle_number").first().battle_number
        view = selectors.campaign_view(campaign=running, as_of=last)
        assert view.as_json() == CampaignProjection.objects.get(campaign=running).data
        assert isinstance(view, ledger.View)


@pytest.mark.django_db
class TestPagesQueryCount:
    """Each page runs a constant number of queries whatever the campaign's size."""

    def _grow(self, campaign, make_player, game_master, n):
        from campaign.models import Membership

        for i in range(n):
            _u, c = make_player(f"extra{campaign.pk}x{i}")
            m = services.membership_request(campaign=campaign, character=c)
            services.membership_assign_side(membership=m, side="defender", by=game_master)
            assert Membership.objects.filter(pk=m.pk).exists()

    @pytest.mark.parametrize("url", ["/campaigns/{c}/", "/campaigns/{c}/standings/", "/campaigns/{c}/chronicle/",
                                     "/campaigns/{c}/standings/?as_of=2", "/campaigns/{c}/?as_of=1",
                                     "/api/campaigns/{c}/standings/", "/campaigns/{c}/feed/"])
    def test_constant_queries(self, client, running, two_battles, make_player, game_master, url):
        path = url.format(c=running.pk)
        small = queries(lambda: client.get(path))
        self._grow(running, make_player, game_master, 12)
        b3 = battle_create(campaign=running, name="Третий бой", number=3)
        finish(b3, winner="draw", credits={cid(running, "fritz"): {"kills": 1}})
        results.battle_conclude(battle_id=b3.id)
        large = queries(lambda: client.get(path))
        assert large == small, f"{path}: {small} queries with a small campaign, {large} with a larger one"
        assert large <= 10

    def test_pages_render_in_both_languages(self, client, running, two_battles):
        for path in (f"/campaigns/{running.pk}/", f"/campaigns/{running.pk}/standings/?sort=rank",
                     f"/campaigns/{running.pk}/chronicle/", f"/characters/{cid(running, 'hans')}/",
                     f"/battles/{two_battles[1].pk}/"):
            for lang in ("ru", "en"):
                r = client.get(path, HTTP_ACCEPT_LANGUAGE=lang)
                assert r.status_code == 200, (path, lang)
        html = client.get(f"/characters/{cid(running, 'hans')}/").content.decode()
        assert "Второй бой" in html  # the service record links the battle
        feed = client.get(f"/campaigns/{running.pk}/feed/")
        assert feed.status_code == 200 and b"<feed" in feed.content

    def test_campaign_page_shows_the_progress_chart(self, client, running, two_battles):
        html = client.get(f"/campaigns/{running.pk}/").content.decode()
        assert "<svg" in html and "polyline" in html


@pytest.mark.django_db
def test_the_players_table_pages_through_a_big_campaign(client, running, make_player, game_master):
    from campaign.models import Membership

    for i in range(101):
        _u, c = make_player(f"many{i:03d}")
        Membership.objects.create(campaign=running, player=c.owner, character=c, status="active", side="attacker")
    services.campaign_projections_rebuild(campaign=running)  # memberships made without events: not listed
    for i in range(101):
        c = Membership.objects.get(campaign=running, player__username=f"many{i:03d}").character
        services.campaign_event_append(type="member_joined", campaign=running, character=c,
                                       data={"rank": "corporal", "side": "attacker"})
    first = client.get(f"/campaigns/{running.pk}/standings/?sort=name&dir=asc").content.decode()
    assert "page=2" in first and "page 1 of 2" in first.replace("страница", "page").replace(" из ", " of ")
    second = client.get(f"/campaigns/{running.pk}/standings/?sort=name&dir=asc&page=2").content.decode()
    names = [n for n in ("Many099", "Many100", "Sidorov") if n in second]
    assert names == ["Many099", "Many100", "Sidorov"]


@pytest.mark.django_db
def test_the_cached_table_follows_every_new_campaign_event(client, running, two_battles, game_master):
    url = f"/campaigns/{running.pk}/standings/?sort=kills"
    before = client.get(url).content.decode()
    assert ">Fritz</a></td><td>Младший сержант</td><td>0</td>\n<td>0</td><td>0</td>" in before
    b3 = battle_create(campaign=running, name="Третий бой", number=3)
    finish(b3, winner="draw", credits={cid(running, "fritz"): {"kills": 7}})
    results.battle_conclude(battle_id=b3.id)
    after = client.get(url).content.decode()
    assert ">Fritz</a></td><td>Младший сержант</td><td>0</td>\n<td>1</td><td>7</td>" in after


DEAD_REDIS = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers Redis there
                          "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}


@pytest.mark.django_db
def test_the_standings_page_is_served_from_the_database_when_redis_is_down(client, running, two_battles,
                                                                           settings, caplog):
    settings.CACHES = DEAD_REDIS
    from django.core.cache import cache

    with pytest.raises(Exception):  # noqa: B017 - the cache really is unreachable
        cache.get("probe")
    r = client.get(f"/campaigns/{running.pk}/standings/?sort=kills")
    assert r.status_code == 200
    html = r.content.decode()
    assert ">Hans</a>" in html and ">Petrov</a>" in html  # the rows, rendered from the database
    assert any("cache unavailable" in m for m in caplog.messages)
    api = client.get(f"/api/campaigns/{running.pk}/standings/")
    assert api.status_code == 200 and {row["name"] for row in api.json()["results"]} >= {"Hans", "Petrov"}
