from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import game_pb2 as _game_pb2
from tavla.v1 import match_pb2 as _match_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AnalysisLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ANALYSIS_LEVEL_UNSPECIFIED: _ClassVar[AnalysisLevel]
    ANALYSIS_LEVEL_BEGINNER: _ClassVar[AnalysisLevel]
    ANALYSIS_LEVEL_INTERMEDIATE: _ClassVar[AnalysisLevel]
    ANALYSIS_LEVEL_ADVANCED: _ClassVar[AnalysisLevel]
    ANALYSIS_LEVEL_EXPERT: _ClassVar[AnalysisLevel]

class Evaluator(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVALUATOR_UNSPECIFIED: _ClassVar[Evaluator]
    EVALUATOR_NEURAL_NET: _ClassVar[Evaluator]
    EVALUATOR_SEARCH: _ClassVar[Evaluator]

class CubeAdvice(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CUBE_ADVICE_UNSPECIFIED: _ClassVar[CubeAdvice]
    CUBE_ADVICE_NO_DOUBLE: _ClassVar[CubeAdvice]
    CUBE_ADVICE_TOO_GOOD: _ClassVar[CubeAdvice]
    CUBE_ADVICE_DOUBLE_TAKE: _ClassVar[CubeAdvice]
    CUBE_ADVICE_DOUBLE_PASS: _ClassVar[CubeAdvice]
    CUBE_ADVICE_DOUBLE_BEAVER: _ClassVar[CubeAdvice]

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_MOVE: _ClassVar[DecisionKind]
    DECISION_KIND_DOUBLE: _ClassVar[DecisionKind]
    DECISION_KIND_TAKE: _ClassVar[DecisionKind]
ANALYSIS_LEVEL_UNSPECIFIED: AnalysisLevel
ANALYSIS_LEVEL_BEGINNER: AnalysisLevel
ANALYSIS_LEVEL_INTERMEDIATE: AnalysisLevel
ANALYSIS_LEVEL_ADVANCED: AnalysisLevel
ANALYSIS_LEVEL_EXPERT: AnalysisLevel
EVALUATOR_UNSPECIFIED: Evaluator
EVALUATOR_NEURAL_NET: Evaluator
EVALUATOR_SEARCH: Evaluator
CUBE_ADVICE_UNSPECIFIED: CubeAdvice
CUBE_ADVICE_NO_DOUBLE: CubeAdvice
CUBE_ADVICE_TOO_GOOD: CubeAdvice
CUBE_ADVICE_DOUBLE_TAKE: CubeAdvice
CUBE_ADVICE_DOUBLE_PASS: CubeAdvice
CUBE_ADVICE_DOUBLE_BEAVER: CubeAdvice
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_MOVE: DecisionKind
DECISION_KIND_DOUBLE: DecisionKind
DECISION_KIND_TAKE: DecisionKind

class AnalysisInfo(_message.Message):
    __slots__ = ("evaluator", "level", "ply")
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    evaluator: Evaluator
    level: AnalysisLevel
    ply: int
    def __init__(self, evaluator: _Optional[_Union[Evaluator, str]] = ..., level: _Optional[_Union[AnalysisLevel, str]] = ..., ply: _Optional[int] = ...) -> None: ...

class Probabilities(_message.Message):
    __slots__ = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    WIN_FIELD_NUMBER: _ClassVar[int]
    WIN_GAMMON_FIELD_NUMBER: _ClassVar[int]
    WIN_BACKGAMMON_FIELD_NUMBER: _ClassVar[int]
    LOSE_GAMMON_FIELD_NUMBER: _ClassVar[int]
    LOSE_BACKGAMMON_FIELD_NUMBER: _ClassVar[int]
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    def __init__(self, win: _Optional[float] = ..., win_gammon: _Optional[float] = ..., win_backgammon: _Optional[float] = ..., lose_gammon: _Optional[float] = ..., lose_backgammon: _Optional[float] = ...) -> None: ...

class AnalyzedMove(_message.Message):
    __slots__ = ("move", "equity", "equity_loss", "probabilities", "ply")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EQUITY_FIELD_NUMBER: _ClassVar[int]
    EQUITY_LOSS_FIELD_NUMBER: _ClassVar[int]
    PROBABILITIES_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    move: _types_pb2.Move
    equity: float
    equity_loss: float
    probabilities: Probabilities
    ply: int
    def __init__(self, move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., equity: _Optional[float] = ..., equity_loss: _Optional[float] = ..., probabilities: _Optional[_Union[Probabilities, _Mapping]] = ..., ply: _Optional[int] = ...) -> None: ...

class SuggestMoveRequest(_message.Message):
    __slots__ = ("ruleset", "position", "dice", "match", "level", "max_moves")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MAX_MOVES_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    match: _match_pb2.MatchState
    level: AnalysisLevel
    max_moves: int
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., level: _Optional[_Union[AnalysisLevel, str]] = ..., max_moves: _Optional[int] = ...) -> None: ...

class SuggestMoveResponse(_message.Message):
    __slots__ = ("moves", "info")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    INFO_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[AnalyzedMove]
    info: AnalysisInfo
    def __init__(self, moves: _Optional[_Iterable[_Union[AnalyzedMove, _Mapping]]] = ..., info: _Optional[_Union[AnalysisInfo, _Mapping]] = ...) -> None: ...

class EvaluatePositionRequest(_message.Message):
    __slots__ = ("ruleset", "position", "match", "level")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    match: _match_pb2.MatchState
    level: AnalysisLevel
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., level: _Optional[_Union[AnalysisLevel, str]] = ...) -> None: ...

class EvaluatePositionResponse(_message.Message):
    __slots__ = ("probabilities", "cubeless_equity", "equity", "info")
    PROBABILITIES_FIELD_NUMBER: _ClassVar[int]
    CUBELESS_EQUITY_FIELD_NUMBER: _ClassVar[int]
    EQUITY_FIELD_NUMBER: _ClassVar[int]
    INFO_FIELD_NUMBER: _ClassVar[int]
    probabilities: Probabilities
    cubeless_equity: float
    equity: float
    info: AnalysisInfo
    def __init__(self, probabilities: _Optional[_Union[Probabilities, _Mapping]] = ..., cubeless_equity: _Optional[float] = ..., equity: _Optional[float] = ..., info: _Optional[_Union[AnalysisInfo, _Mapping]] = ...) -> None: ...

class SuggestCubeActionRequest(_message.Message):
    __slots__ = ("ruleset", "position", "match", "level")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    match: _match_pb2.MatchState
    level: AnalysisLevel
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., level: _Optional[_Union[AnalysisLevel, str]] = ...) -> None: ...

class SuggestCubeActionResponse(_message.Message):
    __slots__ = ("advice", "double_available", "double_denied_reason", "no_double_equity", "double_take_equity", "double_pass_equity", "should_double", "should_take", "should_beaver", "probabilities", "info")
    ADVICE_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_DENIED_REASON_FIELD_NUMBER: _ClassVar[int]
    NO_DOUBLE_EQUITY_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_TAKE_EQUITY_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_PASS_EQUITY_FIELD_NUMBER: _ClassVar[int]
    SHOULD_DOUBLE_FIELD_NUMBER: _ClassVar[int]
    SHOULD_TAKE_FIELD_NUMBER: _ClassVar[int]
    SHOULD_BEAVER_FIELD_NUMBER: _ClassVar[int]
    PROBABILITIES_FIELD_NUMBER: _ClassVar[int]
    INFO_FIELD_NUMBER: _ClassVar[int]
    advice: CubeAdvice
    double_available: bool
    double_denied_reason: str
    no_double_equity: float
    double_take_equity: float
    double_pass_equity: float
    should_double: bool
    should_take: bool
    should_beaver: bool
    probabilities: Probabilities
    info: AnalysisInfo
    def __init__(self, advice: _Optional[_Union[CubeAdvice, str]] = ..., double_available: _Optional[bool] = ..., double_denied_reason: _Optional[str] = ..., no_double_equity: _Optional[float] = ..., double_take_equity: _Optional[float] = ..., double_pass_equity: _Optional[float] = ..., should_double: _Optional[bool] = ..., should_take: _Optional[bool] = ..., should_beaver: _Optional[bool] = ..., probabilities: _Optional[_Union[Probabilities, _Mapping]] = ..., info: _Optional[_Union[AnalysisInfo, _Mapping]] = ...) -> None: ...

class AnalyzeMatchRequest(_message.Message):
    __slots__ = ("mat", "sgf", "ruleset", "level")
    MAT_FIELD_NUMBER: _ClassVar[int]
    SGF_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    mat: str
    sgf: bytes
    ruleset: _types_pb2.Ruleset
    level: AnalysisLevel
    def __init__(self, mat: _Optional[str] = ..., sgf: _Optional[bytes] = ..., ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., level: _Optional[_Union[AnalysisLevel, str]] = ...) -> None: ...

class ReviewedDecision(_message.Message):
    __slots__ = ("game", "move_number", "side", "kind", "position_id", "dice", "played", "best", "error")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    game: int
    move_number: int
    side: _types_pb2.Side
    kind: DecisionKind
    position_id: str
    dice: _containers.RepeatedScalarFieldContainer[int]
    played: str
    best: str
    error: float
    def __init__(self, game: _Optional[int] = ..., move_number: _Optional[int] = ..., side: _Optional[_Union[_types_pb2.Side, str]] = ..., kind: _Optional[_Union[DecisionKind, str]] = ..., position_id: _Optional[str] = ..., dice: _Optional[_Iterable[int]] = ..., played: _Optional[str] = ..., best: _Optional[str] = ..., error: _Optional[float] = ...) -> None: ...

class PlayerReview(_message.Message):
    __slots__ = ("side", "name", "moves", "cube_decisions", "total_error", "error_rate", "performance_rating", "move_error_rate", "cube_error_rate")
    SIDE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    CUBE_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_ERROR_FIELD_NUMBER: _ClassVar[int]
    ERROR_RATE_FIELD_NUMBER: _ClassVar[int]
    PERFORMANCE_RATING_FIELD_NUMBER: _ClassVar[int]
    MOVE_ERROR_RATE_FIELD_NUMBER: _ClassVar[int]
    CUBE_ERROR_RATE_FIELD_NUMBER: _ClassVar[int]
    side: _types_pb2.Side
    name: str
    moves: int
    cube_decisions: int
    total_error: float
    error_rate: float
    performance_rating: float
    move_error_rate: float
    cube_error_rate: float
    def __init__(self, side: _Optional[_Union[_types_pb2.Side, str]] = ..., name: _Optional[str] = ..., moves: _Optional[int] = ..., cube_decisions: _Optional[int] = ..., total_error: _Optional[float] = ..., error_rate: _Optional[float] = ..., performance_rating: _Optional[float] = ..., move_error_rate: _Optional[float] = ..., cube_error_rate: _Optional[float] = ...) -> None: ...

class AnalyzeMatchResponse(_message.Message):
    __slots__ = ("players", "decisions", "games", "info")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    INFO_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[PlayerReview]
    decisions: _containers.RepeatedCompositeFieldContainer[ReviewedDecision]
    games: int
    info: AnalysisInfo
    def __init__(self, players: _Optional[_Iterable[_Union[PlayerReview, _Mapping]]] = ..., decisions: _Optional[_Iterable[_Union[ReviewedDecision, _Mapping]]] = ..., games: _Optional[int] = ..., info: _Optional[_Union[AnalysisInfo, _Mapping]] = ...) -> None: ...

class StreamAnalyzeMatchRequest(_message.Message):
    __slots__ = ("mat", "sgf", "ruleset", "level")
    MAT_FIELD_NUMBER: _ClassVar[int]
    SGF_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    mat: str
    sgf: bytes
    ruleset: _types_pb2.Ruleset
    level: AnalysisLevel
    def __init__(self, mat: _Optional[str] = ..., sgf: _Optional[bytes] = ..., ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., level: _Optional[_Union[AnalysisLevel, str]] = ...) -> None: ...

class AnalyzeMatchProgress(_message.Message):
    __slots__ = ("decisions_done", "decisions_total", "game", "games")
    DECISIONS_DONE_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    decisions_done: int
    decisions_total: int
    game: int
    games: int
    def __init__(self, decisions_done: _Optional[int] = ..., decisions_total: _Optional[int] = ..., game: _Optional[int] = ..., games: _Optional[int] = ...) -> None: ...

class StreamAnalyzeMatchResponse(_message.Message):
    __slots__ = ("progress", "result")
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    progress: AnalyzeMatchProgress
    result: AnalyzeMatchResponse
    def __init__(self, progress: _Optional[_Union[AnalyzeMatchProgress, _Mapping]] = ..., result: _Optional[_Union[AnalyzeMatchResponse, _Mapping]] = ...) -> None: ...

class SuggestActionRequest(_message.Message):
    __slots__ = ("state", "level")
    STATE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    level: AnalysisLevel
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., level: _Optional[_Union[AnalysisLevel, str]] = ...) -> None: ...

class SuggestActionResponse(_message.Message):
    __slots__ = ("action", "info")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    INFO_FIELD_NUMBER: _ClassVar[int]
    action: _game_pb2.GameAction
    info: AnalysisInfo
    def __init__(self, action: _Optional[_Union[_game_pb2.GameAction, _Mapping]] = ..., info: _Optional[_Union[AnalysisInfo, _Mapping]] = ...) -> None: ...
