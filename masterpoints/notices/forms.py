from django import forms

from masterpoints.notices.models import NoticePreference


class NoticePreferenceForm(forms.ModelForm):
    class Meta:
        model = NoticePreference
        fields = ["monthly_statement"]
