"""Reads of the federation's records."""

from federation.models import Federation
from federation.schemes import codes_with


def federation_asked(request, workflow: str) -> Federation | None:
    """The federation whose scheme has ``workflow`` (a :class:`~federation.schemes.SchemeInfo` flag such as
    ``"cups"`` or ``"transition"``) named by the ``federation`` parameter (GET or POST), else the first such
    federation by name; ``None`` when there is none."""
    federations = Federation.objects.filter(scheme__in=codes_with(workflow)).order_by("name")
    chosen = request.GET.get("federation") or request.POST.get("federation")
    if chosen and chosen.isdecimal():
        return federations.filter(pk=int(chosen)).first()
    return federations.first()
