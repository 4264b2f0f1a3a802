"""Analysis and the computer opponent (docs/analysis.md): which move to play, whether to double or
take, how well a match was played.

The evaluations come from a maintained neural-network engine, Open Sage (``bgsage``, MPL-2.0),
for the variants it has nets for (:data:`tavla.analysis.engine.ENGINE_VARIANTS`: backgammon and
Turkish tavla, which share its board); every other variant gets a search player of our own over
the rules core (:mod:`tavla.analysis.search`). Only the integration lives here:

* :mod:`~tavla.analysis.equity`: win/gammon/backgammon probabilities and what they are worth under
  our rules (katmerli mars paid 2 or 3, money play, Jacoby, match play with or without a cube);
* :mod:`~tavla.analysis.levels`: the playing levels (ply, evaluation noise, time budget);
* :mod:`~tavla.analysis.engine`: the bgsage adapter (our board to its input, its answers back);
* :mod:`~tavla.analysis.search`: the search player for variants without a net;
* :mod:`~tavla.analysis.player`: ranked moves, cube advice, and the referee's computer side;
* :mod:`~tavla.analysis.review`: a whole match reviewed (errors, error rate, PR).

Like the core, nothing here imports gRPC or protobuf, except :mod:`~tavla.analysis.player`'s
referee helper, which takes the referee's opened core state.
"""
