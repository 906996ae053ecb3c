"""Admin for the game master: campaigns with sides, players and objectives;
characters with their service records; the campaign log (read-only); award
rules; proposals to approve or reject; and the club webhook's deliveries
(read-only). Every write calls a service."""
from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from config.appendonly import AppendOnlyAdmin
from config.errors import ApplicationError

from . import (
    admin_accounts,  # noqa: F401 - registers the guarded User, Group and Token admins
    selectors,
    services,
)
from .models import (
    Award,
    AwardRule,
    Campaign,
    CampaignEvent,
    Character,
    Membership,
    Metric,
    Nationality,
    Objective,
    Proposal,
    Side,
    WebhookDelivery,
)

# The facts of a proposal name each metric as the game master reads it, never by its key.
FACT_LABELS = {**dict(Metric.choices), "casualties": _("wounds, death or capture of his own figure")}


def metric_label(key: str):
    return FACT_LABELS.get(key, key)


def _report(modeladmin, request, fn):
    try:
        fn()
    except ApplicationError as exc:
        modeladmin.message_user(request, f"{exc.message_ru} / {exc.message_en}", messages.ERROR)
        return False
    return True


def _next(request, default: str) -> str:
    """Back where the one-click action was made (the to-do panel), if it is ours."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return default


# The admin index opens with the game master's to-do panel (join requests, proposals).
admin.site.index_template = "admin/shtab_index.html"


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ("player", "character", "side", "status", "joined_at")
    readonly_fields = ("player", "character", "side", "status", "joined_at")
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class ObjectiveInline(admin.TabularInline):
    model = Objective
    fields = ("order", "name", "description", "initial_holder")
    extra = 1


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "status", "game_master", "created_at")
    list_filter = ("ruleset", "status")
    search_fields = ("name",)
    readonly_fields = ("status", "invite_link", "copied_from")
    inlines = [ObjectiveInline, MembershipInline]
    actions = ["start", "finish", "copy", "rebuild"]
    fieldsets = [
        (None, {"fields": ("name", "ruleset", "description", "status", "game_master", "game_data_version")}),
        (_("Sides"), {"fields": ("attacker_name", "defender_name")}),
        (_("Map"), {"fields": ("map_description",)}),
        (_("Joining"), {"fields": ("invite_link", "copied_from")}),
    ]

    @admin.display(description=_("invitation link"))
    def invite_link(self, obj):
        if not obj.pk:
            return "—"
        url = reverse("campaign-invite", args=[obj.pk, obj.invite_token])
        return format_html('<a href="{0}">{0}</a>', url)

    @admin.action(description=_("Start the selected campaigns"))
    def start(self, request, queryset):
        for c in queryset:
            if _report(self, request, lambda c=c: services.campaign_start(campaign=c, by=request.user)):
                self.message_user(request, _("Started: %s") % c.name)

    @admin.action(description=_("Finish the selected campaigns (read-only archive)"))
    def finish(self, request, queryset):
        """A campaign with a battle still being played asks first (an
        intermediate page naming the battles); the others finish at once."""
        campaigns = list(queryset)
        confirmed = "confirm_running" in request.POST
        running = [(c, selectors.battles_running(campaign=c)) for c in campaigns if not c.is_archived]
        running = [(c, b) for c, b in running if b]
        if running and not confirmed:
            return TemplateResponse(request, "admin/campaign/campaign/finish_confirm.html", {
                **self.admin_site.each_context(request), "opts": self.model._meta, "campaigns": campaigns,
                "running": running, "title": _("Finish a campaign whose battles are still being played?"),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME})
        for c in campaigns:
            if _report(self, request, lambda c=c: services.campaign_finish(campaign=c, by=request.user,
                                                                           battles_running_ok=confirmed)):
                self.message_user(request, _("Finished: %s") % c.name)
        return None

    @admin.action(description=_("Copy as a template for a new campaign"))
    def copy(self, request, queryset):
        for c in queryset:
            _report(self, request, lambda c=c: services.campaign_copy(campaign=c, by=request.user))
        self.message_user(request, _("Copied."))

    @admin.action(description=_("Rebuild standings from the campaign log"))
    def rebuild(self, request, queryset):
        for c in queryset:
            services.campaign_projections_rebuild(campaign=c)
        self.message_user(request, _("Rebuilt."))

    def get_readonly_fields(self, request, obj=None):
        ro = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.is_archived:
            ro += [f.name for f in Campaign._meta.fields if f.name not in ro]
        return ro


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("character", "player", "campaign", "side", "status")
    list_filter = ("campaign", "side", "status")
    readonly_fields = ("campaign", "player", "character", "side", "status", "joined_at")
    actions = ["to_attacker", "to_defender"]

    def _assign(self, request, queryset, side):
        for m in queryset.select_related("campaign", "character"):
            _report(self, request, lambda m=m: services.membership_assign_side(membership=m, side=side, by=request.user))
        self.message_user(request, _("Sides assigned."))

    def get_urls(self):
        return [path("<int:pk>/assign/", self.admin_site.admin_view(self.assign_view),
                     name="campaign_membership_assign")] + super().get_urls()

    def assign_view(self, request, pk: int):
        """One click from the to-do panel: accept the request onto a side."""
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:index"))
        membership = get_object_or_404(Membership.objects.select_related("campaign", "character"), pk=pk)
        side = request.POST.get("side", "")
        if _report(self, request, lambda: services.membership_assign_side(membership=membership, side=side,
                                                                          by=request.user)):
            self.message_user(request, _("%(name)s now fights for «%(side)s».") % {
                "name": membership.character.name, "side": membership.campaign.side_name(side)}, messages.SUCCESS)
        return HttpResponseRedirect(_next(request, reverse("admin:campaign_membership_change", args=[pk])))

    @admin.action(description=_("Assign to the attacking side"))
    def to_attacker(self, request, queryset):
        self._assign(request, queryset, Side.ATTACKER)

    @admin.action(description=_("Assign to the defending side"))
    def to_defender(self, request, queryset):
        self._assign(request, queryset, Side.DEFENDER)

    def has_add_permission(self, request):
        return False


class ServiceRecordInline(admin.TabularInline):
    model = CampaignEvent
    fk_name = "character"
    fields = ("recorded_at", "type", "campaign", "battle", "data")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Nationality)
class NationalityAdmin(admin.ModelAdmin):
    list_display = ("code", "name_ru", "name_en", "corporal_ru", "sergeant_ru", "lieutenant_ru", "captain_ru",
                    "is_placeholder")
    list_filter = ("is_placeholder",)


class CharacterAdminForm(forms.ModelForm):
    def clean_photo(self):
        """The size from the header, before anything decodes it (a decompression bomb)."""
        photo = self.cleaned_data.get("photo")
        if photo and hasattr(photo, "seek") and not getattr(photo, "_committed", False):
            try:
                services.photo_open(photo)
            except ApplicationError as exc:
                ru = (get_language() or "ru").startswith("ru")
                raise forms.ValidationError(exc.message_ru if ru else exc.message_en) from None
            photo.seek(0)
        return photo


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    form = CharacterAdminForm
    list_display = ("name", "owner", "nationality", "rank", "gender")
    list_filter = ("nationality", "rank", "gender")
    search_fields = ("name", "owner__username")
    list_select_related = ("owner", "nationality")
    readonly_fields = ("rank",)
    inlines = [ServiceRecordInline]


@admin.register(CampaignEvent)
class CampaignEventAdmin(AppendOnlyAdmin):
    """The campaign log: append-only like the battle log."""

    list_display = ("id", "campaign", "type", "character", "battle", "battle_number", "recorded_at")
    list_filter = ("type", "campaign")
    list_select_related = ("campaign", "character", "battle")


@admin.register(Award)
class AwardAdmin(admin.ModelAdmin):
    list_display = ("code", "name_ru", "name_en", "is_placeholder")
    list_filter = ("is_placeholder",)


@admin.register(AwardRule)
class AwardRuleAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "metric", "threshold", "award", "promotion", "active", "is_placeholder")
    list_filter = ("campaign", "metric", "active", "is_placeholder")
    list_editable = ("threshold", "active")


@admin.register(Proposal)
class ProposalAdmin(admin.ModelAdmin):
    list_display = ("character", "what", "battle", "status", "decided_by", "created_at")
    list_filter = ("status", "campaign")
    list_select_related = ("character", "battle", "award", "decided_by")
    readonly_fields = ("campaign", "battle", "character", "rule", "award", "to_rank", "facts_table", "status",
                       "note", "decided_by", "decided_at", "created_at")
    exclude = ("facts",)
    actions = ["approve", "reject"]
    change_form_template = "admin/campaign/proposal/change_form.html"

    @admin.display(description=_("proposal"))
    def what(self, obj):
        return obj.award.name_ru if obj.award_id else _("promotion to %s") % obj.get_to_rank_display()

    @admin.display(description=_("facts"))
    def facts_table(self, obj):
        f = obj.facts or {}
        rows = format_html_join("", "<tr><td>{}</td><td>{}</td></tr>",
                                ((metric_label(k), v) for k, v in (f.get("metrics") or {}).items()))
        link = reverse("battle-detail", args=[obj.battle_id]) + f"#seq{f.get('source_seq', '')}"
        return format_html('<p>{} ≥ {} ({}) · <a href="{}">{}</a></p><table>{}</table>', f.get("value"),
                           f.get("threshold"), f.get("rule", ""), link, _("battle log"), rows)

    def _decide(self, request, queryset, approve: bool, note: str = ""):
        done = 0
        for p in queryset:
            if _report(self, request, lambda p=p: services.proposal_decide(proposal=p, approve=approve,
                                                                           by=request.user, note=note)):
                done += 1
        self.message_user(request, (_("Approved: %d") if approve else _("Rejected: %d")) % done)

    @admin.action(description=_("Approve the selected proposals"))
    def approve(self, request, queryset):
        self._decide(request, queryset, True)

    @admin.action(description=_("Reject the selected proposals"))
    def reject(self, request, queryset):
        self._decide(request, queryset, False)

    def get_urls(self):
        return [path("<int:pk>/decide/", self.admin_site.admin_view(self.decide_view),
                     name="campaign_proposal_decide")] + super().get_urls()

    def decide_view(self, request, pk: int):
        proposal = get_object_or_404(Proposal, pk=pk)
        if request.method == "POST":
            approve = "approve" in request.POST
            self._decide(request, Proposal.objects.filter(pk=pk), approve, request.POST.get("note", ""))
        return HttpResponseRedirect(_next(request, reverse("admin:campaign_proposal_change", args=[proposal.pk])))

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False




@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(AppendOnlyAdmin):
    """The club webhook's recent deliveries (campaign.notify), read-only: nothing
    added, changed or deleted here (beat prunes old ones). A failure stands out:
    a red mark and bold words in the list, and a warning above it."""

    list_display = ("created_at", "kind", "subject", "outcome_shown", "problem", "attempts", "finished_at")
    list_filter = ("outcome", "kind", "created_at")
    search_fields = ("subject", "=delivery_id")
    date_hierarchy = "created_at"
    fields = ("delivery_id", "kind", "subject", "target", "outcome", "status_code", "error", "attempts",
              "created_at", "finished_at")

    OUTCOME_ICONS = {WebhookDelivery.Outcome.DELIVERED: "icon-yes.svg", WebhookDelivery.Outcome.FAILED: "icon-no.svg",
                     WebhookDelivery.Outcome.PENDING: "icon-clock.svg"}

    @admin.display(description=_("outcome"), ordering="outcome")
    def outcome_shown(self, obj):
        icon = static(f"admin/img/{self.OUTCOME_ICONS.get(obj.outcome, 'icon-unknown.svg')}")
        if obj.outcome == WebhookDelivery.Outcome.FAILED:
            return format_html('<img src="{}" alt=""> <strong>{}</strong>', icon,
                               obj.get_outcome_display())
        return format_html('<img src="{}" alt=""> {}', icon, obj.get_outcome_display())

    @admin.display(description=_("problem"))
    def problem(self, obj):
        if obj.outcome == WebhookDelivery.Outcome.DELIVERED or not (obj.status_code or obj.error):
            return "—"
        if obj.status_code:
            return _("the receiver answered %(error)s") % {"error": obj.error or obj.status_code}
        return _("the receiver was not reached: %(error)s") % {"error": obj.error}

    def changelist_view(self, request, extra_context=None):
        since = timezone.now() - timedelta(days=1)
        failed = WebhookDelivery.objects.filter(outcome=WebhookDelivery.Outcome.FAILED, created_at__gte=since).count()
        if failed:
            self.message_user(request, ngettext(
                "%(count)d webhook delivery failed in the last 24 hours.",
                "%(count)d webhook deliveries failed in the last 24 hours.", failed) % {"count": failed},
                messages.WARNING)
        return super().changelist_view(request, extra_context)
