"""Issue 33, item 8: HBS strength S had no plausibility bound (S = 999.999 paid 13,793 black points). S is a
tournament's strength factor, 1 for an ordinary club event (H-4); the dated rule set bounds it: above
``strength_maximum`` the preview refuses it, outside the usual range it warns, each naming S, the bound and the
rule set. Through the real path: the upload page, the preview page, the confirm."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from masterpoints.engine.common import RequestError
from masterpoints.engine.hbs.rules import HBS_DRAFT, HbsRuleSet
from masterpoints.engine.hbs.scale import ScaleRequest, scale
from masterpoints.models import Award
from tests.masterpoints.uploads.test_upload_hbs_rules import direktor, post_upload  # noqa: F401 (a fixture)
from tournaments.models import ResultUpload, Tournament


def upload_and_confirm(client, world, strength: str):
    response = post_upload(client, world, strength=strength)
    assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get(response.url).content.decode()
    upload = ResultUpload.objects.get()
    client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    upload.refresh_from_db()
    return upload, page


def test_an_s_above_the_rule_sets_maximum_is_refused_naming_the_bound_and_nothing_is_awarded_h_4(
    client,
    world,
    direktor,  # noqa: F811
):
    client.force_login(direktor)
    upload, page = upload_and_confirm(client, world, "999.999")
    assert "STRENGTH_TOO_HIGH" in page
    assert "is 999.999; the rule set HBS draft allows at most 5 (strength_maximum, H-4)" in page
    assert upload.status == ResultUpload.Status.PENDING
    assert not Tournament.objects.exists() and not Award.objects.exists()


def test_an_s_outside_the_usual_range_is_a_warning_naming_the_range_and_confirms_once_read_h_4(
    client,
    world,
    direktor,  # noqa: F811
):
    client.force_login(direktor)
    upload, page = upload_and_confirm(client, world, "3")
    assert "STRENGTH_UNUSUAL" in page and "outside the usual 0.5 to 2 of the rule set HBS draft (H-4)" in page
    assert upload.status == ResultUpload.Status.CONFIRMED


def test_an_ordinary_s_gets_no_strength_issue(client, world, direktor):  # noqa: F811
    client.force_login(direktor)
    upload, page = upload_and_confirm(client, world, "1.25")
    assert "STRENGTH_" not in page and upload.status == ResultUpload.Status.CONFIRMED


def test_the_engine_refuses_an_s_above_the_maximum_of_the_rule_set_it_is_given_h_4():
    request = ScaleRequest("pairs", 20, 24, Fraction(999999, 1000))
    with pytest.raises(RequestError, match="above the rule set's strength_maximum 5"):
        scale(request, HBS_DRAFT)
    wider = HbsRuleSet.from_dict({**HBS_DRAFT.to_dict(), "strength_maximum": "1000"})
    assert scale(request, wider).first_place > 13000


def test_a_rule_set_keeps_its_strength_bounds_ordered():
    with pytest.raises(ValueError, match="strength_usual_low"):
        HbsRuleSet.from_dict({"strength_usual_high": "6"})
    assert HbsRuleSet.from_dict(HBS_DRAFT.to_dict()) == HBS_DRAFT
