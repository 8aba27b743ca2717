"""What the DBf preview asks the director where the file cannot say: whom each substitute of a pair
or individual replaced (§ 405B7b, D-Q62) and which of the file's two board counts sets the quota (§ 405B6c,
§ 405B7c, D-Q63). The forms offer only what the stored summary asked (the entry's own seated players,
or none; the two counts of the file), the services check the answer against the preview as it is now and store
it as a fact of the upload (``facts["substitutes"]``, ``facts["quota_count"]``): the fingerprint sees it, the
preview is built again with it, and the confirm, which builds the preview from the same facts, pays exactly
what the preview then shows (and its ``payable`` digest refuses anything else)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from federation.services import audit_record
from masterpoints.uploads.services import check_pending, results_upload_preview
from masterpoints.uploads.substitutes import NONE, QUOTA_COUNTS
from tournaments.models import ResultUpload

NOT_SEATED = _(
    "%(value)s is not one of the players of %(substitute)s's entry who began: choose one of them, or none "
    "(§ 405B7b: a substitute is paid only instead of a player of the same entry)."
)


def _player_label(player: dict) -> str:
    return str(_("%(name)s (%(boards)s boards)") % {"name": player["name"], "boards": player["boards"]})


class SubstitutesForm(forms.Form):
    """One choice per substitute the preview asks about: the seated player of the same entry replaced, or none."""

    def __init__(self, *args, questions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.questions = list(questions)
        for index, question in enumerate(self.questions):
            choices = [(p["key"], _player_label(p)) for p in question["seated"]]
            choices.append((NONE, _("none of them: no SP or GP for the substitute")))
            self.fields[f"substitute-{index}"] = forms.ChoiceField(
                label=_("%(substitute)s replaced") % {"substitute": _player_label(question)},
                choices=choices,
                initial=question["answer"],
                error_messages={"invalid_choice": NOT_SEATED % {"value": "%(value)s", "substitute": question["name"]}},
            )

    def answers(self) -> dict[str, str]:
        """The answers by substitute key (the form must be valid)."""
        return {q["key"]: self.cleaned_data[f"substitute-{index}"] for index, q in enumerate(self.questions)}


class QuotaCountForm(forms.Form):
    """Which of the file's two board counts sets the quota (§ 405B6c, § 405B7c, D-Q63)."""

    quota_count = forms.ChoiceField(
        label=_("The quota is set by"),
        error_messages={"invalid_choice": _("Choose the declared or the counted boards (§ 405B6c, § 405B7c).")},
    )

    def __init__(self, *args, question=None, **kwargs):
        super().__init__(*args, **kwargs)
        question = question or {"declared": "–", "counted": "–", "source": "declared"}
        self.fields["quota_count"].choices = [
            (name, _("%(label)s: %(boards)s") % {"label": label, "boards": question[name]})
            for name, label in QUOTA_COUNTS.items()
        ]
        self.fields["quota_count"].initial = question["source"]


def question_forms(upload: ResultUpload, stored: dict) -> dict:
    """The preview's questions with their forms, for the page (none when the upload is no longer pending)."""
    asked, quota = stored.get("substitutes") or [], stored.get("quota")
    pending = upload.status == ResultUpload.Status.PENDING
    return {
        "substitutes_form": SubstitutesForm(questions=asked) if asked and pending else None,
        "quota_question": quota,
        "quota_form": QuotaCountForm(question=quota) if quota and pending else None,
    }


def _locked(actor, upload: ResultUpload) -> tuple[ResultUpload, dict]:
    upload = (
        ResultUpload.objects.select_for_update(of=("self",))
        .select_related("federation", "club", "region")
        .get(pk=upload.pk)
    )
    check_pending(actor, upload)
    return upload, results_upload_preview(upload=upload)


@transaction.atomic
def results_upload_answer_substitutes(*, actor, upload: ResultUpload, answers: dict[str, str]) -> None:
    """Record whom each substitute replaced (§ 405B7b): ``answers`` maps a substitute the preview asks about to
    a seated player of the same entry or ``"none"``; anything else is refused naming the rule."""
    upload, stored = _locked(actor, upload)
    asked = {question["key"]: question for question in stored.get("substitutes") or []}
    for key, value in answers.items():
        question = asked.get(key)
        if question is None:
            raise ValidationError(
                _("The preview asks nothing about %(key)s: it is no substitute of a pair or individual (§ 405B7b)."),
                code="SUBSTITUTE_NOT_ASKED",
                params={"key": str(key)[:60]},
            )
        if value != NONE and value not in {p["key"] for p in question["seated"]}:
            raise ValidationError(
                NOT_SEATED,
                code="SUBSTITUTE_NOT_SEATED",
                params={"value": str(value)[:60], "substitute": question["name"]},
            )
    previous = upload.facts.get("substitutes") or {}
    upload.facts = {**upload.facts, "substitutes": {**previous, **answers}}
    upload.save(update_fields=["facts"])
    audit_record(
        actor=actor,
        action="results.upload.substitutes",
        target=upload,
        payload={"answers": answers, "previous": previous},
    )


@transaction.atomic
def results_upload_choose_quota_count(*, actor, upload: ResultUpload, count: str) -> None:
    """Record which of the file's two board counts sets the quota (``declared`` or ``counted``, § 405B6c,
    § 405B7c, D-Q63); refused when the preview does not ask (the counts agree, or the form gave the boards)."""
    upload, stored = _locked(actor, upload)
    if count not in QUOTA_COUNTS:
        raise ValidationError(
            _("Choose the declared or the counted boards (§ 405B6c, § 405B7c)."), code="QUOTA_COUNT_UNKNOWN"
        )
    if not stored.get("quota"):
        raise ValidationError(
            _(
                "The file's board counts do not differ here, or Boards was given on the upload: nothing to "
                "choose (D-Q63)."
            ),
            code="QUOTA_COUNT_NOT_ASKED",
        )
    previous = upload.facts.get("quota_count") or ""
    upload.facts = {**upload.facts, "quota_count": count}
    upload.save(update_fields=["facts"])
    audit_record(
        actor=actor, action="results.upload.quota_count", target=upload, payload={"count": count, "previous": previous}
    )
