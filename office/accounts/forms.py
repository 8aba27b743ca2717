"""The forms of the logins: the password reset request (mailed through the outbox), a player's login request
and the choice of username and password behind the link."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from federation import outbox


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's password reset request, its mail written to the outbox (sent after commit, with retries)
    instead of sent during the request: a mail server outage never shows, nor does its timing."""

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name=None
    ):
        subject = " ".join(render_to_string(subject_template_name, context).split())
        body = render_to_string(email_template_name, context)
        html = render_to_string(html_email_template_name, context) if html_email_template_name else ""
        with transaction.atomic():
            outbox.enqueue_mail(subject=subject, body=body, html=html, to=[to_email], from_email=from_email)


class PlayerLoginRequestForm(forms.Form):
    number = forms.CharField(label=_("Registration number"), max_length=20)
    email = forms.EmailField(label=_("E-mail address on the register"), max_length=254)


class PlayerLoginSetForm(UserCreationForm):
    """A username not yet taken (in any case) and the password twice, checked by Django's password validators
    (``AUTH_PASSWORD_VALIDATORS``). The login itself is written by ``player_login_create``, never by ``save``."""
