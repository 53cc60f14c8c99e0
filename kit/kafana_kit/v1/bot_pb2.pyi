from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Pin(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PIN_NONE: _ClassVar[Pin]
    PIN_MINE: _ClassVar[Pin]
    PIN_THEIRS: _ClassVar[Pin]
PIN_NONE: Pin
PIN_MINE: Pin
PIN_THEIRS: Pin

class HelloRequest(_message.Message):
    __slots__ = ("protocol", "referee_version")
    PROTOCOL_FIELD_NUMBER: _ClassVar[int]
    REFEREE_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol: str
    referee_version: str
    def __init__(self, protocol: _Optional[str] = ..., referee_version: _Optional[str] = ...) -> None: ...

class HelloResponse(_message.Message):
    __slots__ = ("name", "version", "author", "language", "games", "without_action_detail", "session")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WITHOUT_ACTION_DETAIL_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    author: str
    language: str
    games: _containers.RepeatedScalarFieldContainer[str]
    without_action_detail: bool
    session: bool
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., author: _Optional[str] = ..., language: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., without_action_detail: _Optional[bool] = ..., session: _Optional[bool] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ("bank_ms", "increment_ms", "move_cap_ms", "move_limit_ms")
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_MS_FIELD_NUMBER: _ClassVar[int]
    MOVE_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    MOVE_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    bank_ms: int
    increment_ms: int
    move_cap_ms: int
    move_limit_ms: int
    def __init__(self, bank_ms: _Optional[int] = ..., increment_ms: _Optional[int] = ..., move_cap_ms: _Optional[int] = ..., move_limit_ms: _Optional[int] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("match_id", "game_number", "game", "seat", "options", "decision", "backgammon", "durak", "gaps", "gapa", "json", "clock", "legal_actions")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    BACKGAMMON_FIELD_NUMBER: _ClassVar[int]
    DURAK_FIELD_NUMBER: _ClassVar[int]
    GAPS_FIELD_NUMBER: _ClassVar[int]
    GAPA_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game_number: int
    game: str
    seat: int
    options: _containers.ScalarMap[str, str]
    decision: int
    backgammon: BackgammonView
    durak: DurakView
    gaps: GapsView
    gapa: GapaView
    json: str
    clock: Clock
    legal_actions: _containers.RepeatedCompositeFieldContainer[LegalAction]
    def __init__(self, match_id: _Optional[str] = ..., game_number: _Optional[int] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., decision: _Optional[int] = ..., backgammon: _Optional[_Union[BackgammonView, _Mapping]] = ..., durak: _Optional[_Union[DurakView, _Mapping]] = ..., gaps: _Optional[_Union[GapsView, _Mapping]] = ..., gapa: _Optional[_Union[GapaView, _Mapping]] = ..., json: _Optional[str] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[LegalAction, _Mapping]]] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("id", "notation", "backgammon", "durak", "gaps", "gapa", "json")
    ID_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    BACKGAMMON_FIELD_NUMBER: _ClassVar[int]
    DURAK_FIELD_NUMBER: _ClassVar[int]
    GAPS_FIELD_NUMBER: _ClassVar[int]
    GAPA_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    id: int
    notation: str
    backgammon: BackgammonPlay
    durak: DurakAction
    gaps: GapsMove
    gapa: GapaAction
    json: str
    def __init__(self, id: _Optional[int] = ..., notation: _Optional[str] = ..., backgammon: _Optional[_Union[BackgammonPlay, _Mapping]] = ..., durak: _Optional[_Union[DurakAction, _Mapping]] = ..., gaps: _Optional[_Union[GapsMove, _Mapping]] = ..., gapa: _Optional[_Union[GapaAction, _Mapping]] = ..., json: _Optional[str] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("action_id", "comment")
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    action_id: int
    comment: str
    def __init__(self, action_id: _Optional[int] = ..., comment: _Optional[str] = ...) -> None: ...

class BackgammonView(_message.Message):
    __slots__ = ("variant", "points", "my_bar", "their_bar", "my_off", "their_off", "dice", "turn", "match", "rolls", "later_stages", "remainder")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    MY_BAR_FIELD_NUMBER: _ClassVar[int]
    THEIR_BAR_FIELD_NUMBER: _ClassVar[int]
    MY_OFF_FIELD_NUMBER: _ClassVar[int]
    THEIR_OFF_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    ROLLS_FIELD_NUMBER: _ClassVar[int]
    LATER_STAGES_FIELD_NUMBER: _ClassVar[int]
    REMAINDER_FIELD_NUMBER: _ClassVar[int]
    variant: str
    points: _containers.RepeatedCompositeFieldContainer[BackgammonPoint]
    my_bar: int
    their_bar: int
    my_off: int
    their_off: int
    dice: _containers.RepeatedScalarFieldContainer[int]
    turn: int
    match: MatchScore
    rolls: _containers.RepeatedScalarFieldContainer[int]
    later_stages: _containers.RepeatedScalarFieldContainer[int]
    remainder: bool
    def __init__(self, variant: _Optional[str] = ..., points: _Optional[_Iterable[_Union[BackgammonPoint, _Mapping]]] = ..., my_bar: _Optional[int] = ..., their_bar: _Optional[int] = ..., my_off: _Optional[int] = ..., their_off: _Optional[int] = ..., dice: _Optional[_Iterable[int]] = ..., turn: _Optional[int] = ..., match: _Optional[_Union[MatchScore, _Mapping]] = ..., rolls: _Optional[_Iterable[int]] = ..., later_stages: _Optional[_Iterable[int]] = ..., remainder: _Optional[bool] = ...) -> None: ...

class BackgammonPoint(_message.Message):
    __slots__ = ("mine", "theirs", "pin")
    MINE_FIELD_NUMBER: _ClassVar[int]
    THEIRS_FIELD_NUMBER: _ClassVar[int]
    PIN_FIELD_NUMBER: _ClassVar[int]
    mine: int
    theirs: int
    pin: Pin
    def __init__(self, mine: _Optional[int] = ..., theirs: _Optional[int] = ..., pin: _Optional[_Union[Pin, str]] = ...) -> None: ...

class BackgammonStep(_message.Message):
    __slots__ = ("to", "die", "hit")
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    HIT_FIELD_NUMBER: _ClassVar[int]
    to: int
    die: int
    hit: bool
    def __init__(self, to: _Optional[int] = ..., die: _Optional[int] = ..., hit: _Optional[bool] = ..., **kwargs) -> None: ...

class BackgammonPlay(_message.Message):
    __slots__ = ("steps",)
    STEPS_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[BackgammonStep]
    def __init__(self, steps: _Optional[_Iterable[_Union[BackgammonStep, _Mapping]]] = ...) -> None: ...

class MatchScore(_message.Message):
    __slots__ = ("points", "target", "game_number", "current_game")
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    CURRENT_GAME_FIELD_NUMBER: _ClassVar[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    target: int
    game_number: int
    current_game: str
    def __init__(self, points: _Optional[_Iterable[int]] = ..., target: _Optional[int] = ..., game_number: _Optional[int] = ..., current_game: _Optional[str] = ...) -> None: ...

class DurakView(_message.Message):
    __slots__ = ("variant", "hand", "seats", "trump_suit", "trump_card", "trump_in_stock", "stock", "table", "discard", "phase", "to_act", "attacker", "defender", "throw_room", "bout", "shown", "deal", "deals", "duraks")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_SUIT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CARD_FIELD_NUMBER: _ClassVar[int]
    TRUMP_IN_STOCK_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    THROW_ROOM_FIELD_NUMBER: _ClassVar[int]
    BOUT_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    DURAKS_FIELD_NUMBER: _ClassVar[int]
    variant: str
    hand: _containers.RepeatedScalarFieldContainer[str]
    seats: _containers.RepeatedCompositeFieldContainer[DurakSeat]
    trump_suit: str
    trump_card: str
    trump_in_stock: bool
    stock: int
    table: _containers.RepeatedCompositeFieldContainer[DurakPair]
    discard: _containers.RepeatedScalarFieldContainer[str]
    phase: str
    to_act: int
    attacker: int
    defender: int
    throw_room: int
    bout: int
    shown: _containers.RepeatedScalarFieldContainer[str]
    deal: int
    deals: int
    duraks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, variant: _Optional[str] = ..., hand: _Optional[_Iterable[str]] = ..., seats: _Optional[_Iterable[_Union[DurakSeat, _Mapping]]] = ..., trump_suit: _Optional[str] = ..., trump_card: _Optional[str] = ..., trump_in_stock: _Optional[bool] = ..., stock: _Optional[int] = ..., table: _Optional[_Iterable[_Union[DurakPair, _Mapping]]] = ..., discard: _Optional[_Iterable[str]] = ..., phase: _Optional[str] = ..., to_act: _Optional[int] = ..., attacker: _Optional[int] = ..., defender: _Optional[int] = ..., throw_room: _Optional[int] = ..., bout: _Optional[int] = ..., shown: _Optional[_Iterable[str]] = ..., deal: _Optional[int] = ..., deals: _Optional[int] = ..., duraks: _Optional[_Iterable[int]] = ...) -> None: ...

class DurakSeat(_message.Message):
    __slots__ = ("hand_size", "place", "role", "known", "team")
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    KNOWN_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    hand_size: int
    place: int
    role: str
    known: _containers.RepeatedScalarFieldContainer[str]
    team: int
    def __init__(self, hand_size: _Optional[int] = ..., place: _Optional[int] = ..., role: _Optional[str] = ..., known: _Optional[_Iterable[str]] = ..., team: _Optional[int] = ...) -> None: ...

class DurakPair(_message.Message):
    __slots__ = ("attack", "defence")
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_FIELD_NUMBER: _ClassVar[int]
    attack: str
    defence: str
    def __init__(self, attack: _Optional[str] = ..., defence: _Optional[str] = ...) -> None: ...

class DurakAction(_message.Message):
    __slots__ = ("kind", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, kind: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Notification(_message.Message):
    __slots__ = ("game_over", "match_over")
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    MATCH_OVER_FIELD_NUMBER: _ClassVar[int]
    game_over: GameOver
    match_over: MatchOver
    def __init__(self, game_over: _Optional[_Union[GameOver, _Mapping]] = ..., match_over: _Optional[_Union[MatchOver, _Mapping]] = ...) -> None: ...

class SeatResult(_message.Message):
    __slots__ = ("seat", "points", "fault", "fault_message")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    FAULT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    points: int
    fault: str
    fault_message: str
    def __init__(self, seat: _Optional[int] = ..., points: _Optional[int] = ..., fault: _Optional[str] = ..., fault_message: _Optional[str] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ("match_id", "game_number", "game", "termination", "seats")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game_number: int
    game: str
    termination: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatResult]
    def __init__(self, match_id: _Optional[str] = ..., game_number: _Optional[int] = ..., game: _Optional[str] = ..., termination: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ...) -> None: ...

class MatchOver(_message.Message):
    __slots__ = ("match_id", "game", "seats")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatResult]
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ...) -> None: ...

class NotifyResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SessionRequest(_message.Message):
    __slots__ = ("act", "notify")
    ACT_FIELD_NUMBER: _ClassVar[int]
    NOTIFY_FIELD_NUMBER: _ClassVar[int]
    act: ActRequest
    notify: Notification
    def __init__(self, act: _Optional[_Union[ActRequest, _Mapping]] = ..., notify: _Optional[_Union[Notification, _Mapping]] = ...) -> None: ...

class SessionResponse(_message.Message):
    __slots__ = ("act", "notified")
    ACT_FIELD_NUMBER: _ClassVar[int]
    NOTIFIED_FIELD_NUMBER: _ClassVar[int]
    act: ActResponse
    notified: NotifyResponse
    def __init__(self, act: _Optional[_Union[ActResponse, _Mapping]] = ..., notified: _Optional[_Union[NotifyResponse, _Mapping]] = ...) -> None: ...

class GapsView(_message.Message):
    __slots__ = ("variant", "rows", "columns", "grid", "round", "rounds", "moves", "move_cap", "placed", "row_length", "runs")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    GRID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    MOVE_CAP_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    ROW_LENGTH_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    variant: str
    rows: int
    columns: int
    grid: _containers.RepeatedScalarFieldContainer[str]
    round: int
    rounds: int
    moves: int
    move_cap: int
    placed: int
    row_length: int
    runs: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, variant: _Optional[str] = ..., rows: _Optional[int] = ..., columns: _Optional[int] = ..., grid: _Optional[_Iterable[str]] = ..., round: _Optional[int] = ..., rounds: _Optional[int] = ..., moves: _Optional[int] = ..., move_cap: _Optional[int] = ..., placed: _Optional[int] = ..., row_length: _Optional[int] = ..., runs: _Optional[_Iterable[int]] = ...) -> None: ...

class GapsMove(_message.Message):
    __slots__ = ("card", "to", "end_round")
    CARD_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    END_ROUND_FIELD_NUMBER: _ClassVar[int]
    card: str
    to: int
    end_round: bool
    def __init__(self, card: _Optional[str] = ..., to: _Optional[int] = ..., end_round: _Optional[bool] = ..., **kwargs) -> None: ...

class GapaView(_message.Message):
    __slots__ = ("players", "foundations", "side", "turn", "actions", "turn_cap", "shifted", "priority", "mode")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    FOUNDATIONS_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TURN_CAP_FIELD_NUMBER: _ClassVar[int]
    SHIFTED_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[GapaHolding]
    foundations: _containers.RepeatedScalarFieldContainer[str]
    side: _containers.RepeatedCompositeFieldContainer[GapaPile]
    turn: int
    actions: int
    turn_cap: int
    shifted: _containers.RepeatedScalarFieldContainer[str]
    priority: int
    mode: str
    def __init__(self, players: _Optional[_Iterable[_Union[GapaHolding, _Mapping]]] = ..., foundations: _Optional[_Iterable[str]] = ..., side: _Optional[_Iterable[_Union[GapaPile, _Mapping]]] = ..., turn: _Optional[int] = ..., actions: _Optional[int] = ..., turn_cap: _Optional[int] = ..., shifted: _Optional[_Iterable[str]] = ..., priority: _Optional[int] = ..., mode: _Optional[str] = ...) -> None: ...

class GapaHolding(_message.Message):
    __slots__ = ("small", "small_up", "big", "big_known", "big_up", "pending", "pending_from")
    SMALL_FIELD_NUMBER: _ClassVar[int]
    SMALL_UP_FIELD_NUMBER: _ClassVar[int]
    BIG_FIELD_NUMBER: _ClassVar[int]
    BIG_KNOWN_FIELD_NUMBER: _ClassVar[int]
    BIG_UP_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    PENDING_FROM_FIELD_NUMBER: _ClassVar[int]
    small: int
    small_up: _containers.RepeatedScalarFieldContainer[str]
    big: int
    big_known: _containers.RepeatedScalarFieldContainer[str]
    big_up: _containers.RepeatedScalarFieldContainer[str]
    pending: str
    pending_from: str
    def __init__(self, small: _Optional[int] = ..., small_up: _Optional[_Iterable[str]] = ..., big: _Optional[int] = ..., big_known: _Optional[_Iterable[str]] = ..., big_up: _Optional[_Iterable[str]] = ..., pending: _Optional[str] = ..., pending_from: _Optional[str] = ...) -> None: ...

class GapaPile(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class GapaAction(_message.Message):
    __slots__ = ("kind", "card", "to")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    kind: str
    card: str
    to: str
    def __init__(self, kind: _Optional[str] = ..., card: _Optional[str] = ..., to: _Optional[str] = ..., **kwargs) -> None: ...
