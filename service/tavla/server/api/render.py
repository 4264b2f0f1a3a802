"""RenderPosition: the request to a :class:`~tavla.render.BoardPicture`, and the SVG and text
boards back (docs/formats.md, "Pictures")."""

from __future__ import annotations

from tavla import core
from tavla.core import InvalidInputError
from tavla.render import BoardPicture, svg, text
from tavla.server.convert import common as convert
from tavla.server.convert import match as cm
from tavla.v1 import rules_service_pb2 as api


def render_position(request: api.RenderPositionRequest) -> api.RenderPositionResponse:
    """The SVG and text boards of the request's position, match and dice.

    :raises InvalidInputError: bad ruleset, position, match or dice, an unknown
        ``options.bottom`` or a width outside 200-4000 (``options.width``).
    """
    rules = convert.ruleset_from_proto(request.ruleset)
    position = convert.position_from_proto(request.position, rules.variant_class)
    match = None
    if request.HasField("match"):
        match = cm.checked_match_from_proto(request.match, rules)
    dice = core.check_dice(convert.dice_from_proto(request.dice)) if request.dice else None
    options = request.options
    bottom = convert.side_from_proto(options.bottom, "options.bottom", position.on_roll)
    width = options.width or svg.DEFAULT_WIDTH
    if not svg.MIN_WIDTH <= width <= svg.MAX_WIDTH:
        raise InvalidInputError("options.width", f"{width} is not {svg.MIN_WIDTH}-{svg.MAX_WIDTH} pixels")
    picture = BoardPicture(position, match, dice, bottom, options.home_left)
    returned = convert.position_to_proto(position)
    title = f"{position.on_roll.name.lower()} on roll, {returned.ids.xgid or returned.ids.family_id}"
    return api.RenderPositionResponse(svg=svg.render(picture, width, title), text=text.render(picture),
                                      position=returned)
