package dev.tavla.client;

import com.google.protobuf.ByteString;
import dev.tavla.v1.ActRequest;
import dev.tavla.v1.ActResponse;
import dev.tavla.v1.ActionKind;
import dev.tavla.v1.AdvanceClockRequest;
import dev.tavla.v1.AdvanceClockResponse;
import dev.tavla.v1.AnalysisLevel;
import dev.tavla.v1.AnalysisServiceGrpc;
import dev.tavla.v1.AnalyzeMatchRequest;
import dev.tavla.v1.AnalyzeMatchProgress;
import dev.tavla.v1.AnalyzeMatchResponse;
import dev.tavla.v1.StreamAnalyzeMatchRequest;
import dev.tavla.v1.StreamAnalyzeMatchResponse;
import dev.tavla.v1.EvaluatePositionRequest;
import dev.tavla.v1.EvaluatePositionResponse;
import dev.tavla.v1.SuggestActionRequest;
import dev.tavla.v1.SuggestActionResponse;
import dev.tavla.v1.SuggestCubeActionRequest;
import dev.tavla.v1.SuggestCubeActionResponse;
import dev.tavla.v1.SuggestMoveRequest;
import dev.tavla.v1.SuggestMoveResponse;
import dev.tavla.v1.AnswerResignationRequest;
import dev.tavla.v1.AnswerResignationResponse;
import dev.tavla.v1.ClockEvent;
import dev.tavla.v1.ClockSettings;
import dev.tavla.v1.ClockState;
import dev.tavla.v1.CommitDiceRequest;
import dev.tavla.v1.CommitDiceResponse;
import dev.tavla.v1.ActionRecord;
import dev.tavla.v1.ExportFormat;
import dev.tavla.v1.ExportMatchRequest;
import dev.tavla.v1.ExportMatchResponse;
import dev.tavla.v1.GameAction;
import dev.tavla.v1.ResolveRulesetRequest;
import dev.tavla.v1.ResolveRulesetResponse;
import dev.tavla.v1.ListActionsRequest;
import dev.tavla.v1.ListActionsResponse;
import dev.tavla.v1.ListRulesetsRequest;
import dev.tavla.v1.ListRulesetsResponse;
import dev.tavla.v1.VariantFacts;
import dev.tavla.v1.NameRollRequest;
import dev.tavla.v1.NameRollResponse;
import dev.tavla.v1.NewMatchRequest;
import dev.tavla.v1.NewMatchResponse;
import dev.tavla.v1.OfferResignationRequest;
import dev.tavla.v1.OfferResignationResponse;
import dev.tavla.v1.RecordFormat;
import dev.tavla.v1.RenderOptions;
import dev.tavla.v1.RenderPositionRequest;
import dev.tavla.v1.RenderPositionResponse;
import dev.tavla.v1.ResignationOffer;
import dev.tavla.v1.ResultKind;
import dev.tavla.v1.SignedGameState;
import dev.tavla.v1.ValidateMatchRequest;
import dev.tavla.v1.ValidateMatchResponse;
import dev.tavla.v1.ValidationRules;
import dev.tavla.v1.ApplyCubeActionRequest;
import dev.tavla.v1.ApplyCubeActionResponse;
import dev.tavla.v1.ApplyMoveRequest;
import dev.tavla.v1.ApplyMoveResponse;
import dev.tavla.v1.BearOffRequest;
import dev.tavla.v1.BearOffResponse;
import dev.tavla.v1.CheckerMove;
import dev.tavla.v1.CubeAction;
import dev.tavla.v1.GameOutcome;
import dev.tavla.v1.ListCubeActionsRequest;
import dev.tavla.v1.ListCubeActionsResponse;
import dev.tavla.v1.ListLegalStepsRequest;
import dev.tavla.v1.ListLegalStepsResponse;
import dev.tavla.v1.MatchState;
import dev.tavla.v1.RollDiceRequest;
import dev.tavla.v1.RollDiceResponse;
import dev.tavla.v1.StartGameRequest;
import dev.tavla.v1.StartGameResponse;
import dev.tavla.v1.UpdateMatchRequest;
import dev.tavla.v1.UpdateMatchResponse;
import dev.tavla.v1.MatchServiceGrpc;
import dev.tavla.v1.RecordsServiceGrpc;
import dev.tavla.v1.RefereeServiceGrpc;
import dev.tavla.v1.RulesServiceGrpc;
import dev.tavla.v1.GetInitialPositionRequest;
import dev.tavla.v1.ListLegalMovesRequest;
import dev.tavla.v1.Move;
import dev.tavla.v1.Position;
import dev.tavla.v1.Ruleset;
import dev.tavla.v1.ScoreGameRequest;
import dev.tavla.v1.ScoreGameResponse;
import dev.tavla.v1.Side;
import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A client of the tavla.v1 services of the stateless tavla and backgammon rules engine
 * (RulesService, MatchService, RefereeService, RecordsService, AnalysisService): a small typed wrapper over the
 * generated stubs in {@code dev.tavla.v1}, all on one channel.
 *
 * <p>{@link #create(String)} opens a plaintext channel with the default service config that every
 * tavla client shares ({@link #SERVICE_CONFIG}: a 30 s deadline for calls without one, up to 5
 * attempts on {@code UNAVAILABLE}). Every RPC has a helper ({@link #HELPERS}) taking the request's
 * main fields; {@link #rules()}, {@link #match()}, {@link #referee()}, {@link #records()} and
 * {@link #analysis()} are the generated blocking stubs of the five services, with every RPC's full request and response. Calls fail with {@link io.grpc.StatusRuntimeException}; {@link EngineError#from}
 * reads its rich details. Thread-safe; close it when done.
 */
public final class TavlaClient implements AutoCloseable {
  /** Where {@code make serve} listens. */
  public static final String DEFAULT_TARGET = "localhost:50051";

  /** The Position ID of the starting position (R2), for either side on roll. */
  public static final String START_POSITION_ID = "4HPwATDgc/ABMA";

  /**
   * The default service config of every tavla client (clients/service_config.json; a test checks
   * they agree), in the form {@link ManagedChannelBuilder#defaultServiceConfig} takes: numbers as
   * {@code Double}. Every RPC is stateless, so retrying is always safe.
   */
  public static final Map<String, ?> SERVICE_CONFIG =
      Map.of(
          "methodConfig",
          List.of(
              Map.of(
                  "name",
                      List.of(
                          Map.of("service", "tavla.v1.RulesService"),
                          Map.of("service", "tavla.v1.MatchService"),
                          Map.of("service", "tavla.v1.RefereeService"),
                          Map.of("service", "tavla.v1.RecordsService"),
                          Map.of("service", "tavla.v1.AnalysisService")),
                  "timeout", "30s",
                  "retryPolicy",
                      Map.of(
                          "maxAttempts", 5.0,
                          "initialBackoff", "0.1s",
                          "maxBackoff", "2s",
                          "backoffMultiplier", 2.0,
                          "retryableStatusCodes", List.of("UNAVAILABLE", "CANCELLED"))),
              // ValidateMatch streams a whole archive: no timeout and no retry
              Map.of(
                  "name",
                  List.of(Map.of("service", "tavla.v1.RecordsService", "method", "ValidateMatch")))));

  /**
   * The helper method of each RPC of the five services (RPC names are unique across them; a test
   * checks every RPC of the service descriptors has one), as in the Python, TypeScript and Go
   * clients.
   */
  public static final Map<String, String> HELPERS =
      Map.ofEntries(
          Map.entry("GetInitialPosition", "getInitialPosition"),
          Map.entry("ListLegalMoves", "listLegalMoves"),
          Map.entry("ApplyMove", "applyMove"),
          Map.entry("ScoreGame", "scoreGame"),
          Map.entry("BearOff", "bearOff"),
          Map.entry("ListLegalSteps", "listLegalSteps"),
          Map.entry("StartGame", "startGame"),
          Map.entry("CommitDice", "commitDice"),
          Map.entry("RollDice", "rollDice"),
          Map.entry("NameRoll", "nameRoll"),
          Map.entry("ListCubeActions", "listCubeActions"),
          Map.entry("ApplyCubeAction", "applyCubeAction"),
          Map.entry("OfferResignation", "offerResignation"),
          Map.entry("AnswerResignation", "answerResignation"),
          Map.entry("UpdateMatch", "updateMatch"),
          Map.entry("AdvanceClock", "advanceClock"),
          Map.entry("ResolveRuleset", "resolveRuleset"),
          Map.entry("ListRulesets", "listRulesets"),
          Map.entry("RenderPosition", "renderPosition"),
          Map.entry("NewMatch", "newMatch"),
          Map.entry("ListActions", "listActions"),
          Map.entry("Act", "act"),
          Map.entry("ValidateMatch", "validateMatch"),
          Map.entry("ExportMatch", "exportMatch"),
          Map.entry("SuggestMove", "suggestMove"),
          Map.entry("EvaluatePosition", "evaluatePosition"),
          Map.entry("SuggestCubeAction", "suggestCubeAction"),
          Map.entry("AnalyzeMatch", "analyzeMatch"),
          Map.entry("SuggestAction", "suggestAction"),
          Map.entry("StreamAnalyzeMatch", "streamAnalyzeMatch"));

  private final ManagedChannel channel;
  private final RulesServiceGrpc.RulesServiceBlockingStub rules;
  private final MatchServiceGrpc.MatchServiceBlockingStub match;
  private final RefereeServiceGrpc.RefereeServiceBlockingStub referee;
  private final RecordsServiceGrpc.RecordsServiceBlockingStub records;
  private final RecordsServiceGrpc.RecordsServiceStub asyncRecords; // for the ValidateMatch stream
  private final AnalysisServiceGrpc.AnalysisServiceBlockingStub analysis;
  private final Ruleset ruleset;
  // the first ListRulesets answer's facts, kept; shared with withRuleset's and withLocale's clients
  private final AtomicReference<VariantTable> variants;

  /** The request metadata a test server (--test-inputs, state mode off) reads Act's dice from ("6,1"). */
  public static final String TEST_DICE_KEY = "x-tavla-test-dice";

  /** The request metadata that picks the language of the player messages ("en", "tr"). */
  public static final String LOCALE_KEY = "x-tavla-locale";

  private TavlaClient(ManagedChannel channel, Ruleset ruleset, ClientInterceptor... interceptors) {
    this(channel, ruleset, new AtomicReference<>(), interceptors);
  }

  private TavlaClient(
      ManagedChannel channel, Ruleset ruleset, AtomicReference<VariantTable> variants, ClientInterceptor... interceptors) {
    this.channel = channel;
    this.variants = variants;
    this.rules = RulesServiceGrpc.newBlockingStub(channel).withInterceptors(interceptors);
    this.match = MatchServiceGrpc.newBlockingStub(channel).withInterceptors(interceptors);
    this.referee = RefereeServiceGrpc.newBlockingStub(channel).withInterceptors(interceptors);
    this.records = RecordsServiceGrpc.newBlockingStub(channel).withInterceptors(interceptors);
    this.asyncRecords = RecordsServiceGrpc.newStub(channel).withInterceptors(interceptors);
    this.analysis = AnalysisServiceGrpc.newBlockingStub(channel).withInterceptors(interceptors);
    this.ruleset = ruleset;
    this.interceptors = interceptors;
  }

  private final ClientInterceptor[] interceptors;

  /** A client for {@code target} ("host:port" or a gRPC target URI): plaintext, default config. */
  public static TavlaClient create(String target) {
    return create(channelBuilder(target).build(), Ruleset.getDefaultInstance());
  }

  /**
   * A client over a channel you built (TLS, interceptors, ...): start from {@link
   * #channelBuilder(String)} to keep the default service config. The client closes the channel.
   *
   * @param ruleset sent with every helper call; the default instance means the server's default
   */
  public static TavlaClient create(ManagedChannel channel, Ruleset ruleset) {
    return new TavlaClient(channel, ruleset);
  }

  /** A plaintext channel builder for {@code target} with {@link #SERVICE_CONFIG} and retries on. */
  public static ManagedChannelBuilder<?> channelBuilder(String target) {
    return ManagedChannelBuilder.forTarget(target)
        .usePlaintext()
        .defaultServiceConfig(SERVICE_CONFIG)
        .enableRetry();
  }

  /** The same client with another ruleset for the helpers, sharing the channel. */
  public TavlaClient withRuleset(Ruleset ruleset) {
    return new TavlaClient(channel, ruleset, variants, interceptors);
  }

  /**
   * The same client sending {@code locale} ("tr" or "en") as {@link #LOCALE_KEY} with every call:
   * the language of the player messages ({@link EngineError#localized()}).
   */
  public TavlaClient withLocale(String locale) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of(LOCALE_KEY, Metadata.ASCII_STRING_MARSHALLER), locale);
    ClientInterceptor[] all = Arrays.copyOf(interceptors, interceptors.length + 1);
    all[interceptors.length] = MetadataUtils.newAttachHeadersInterceptor(headers);
    return new TavlaClient(channel, ruleset, variants, all);
  }

  /** The generated blocking stub of RulesService: positions, moves, scoring, bear-off, pictures, roll names. */
  public RulesServiceGrpc.RulesServiceBlockingStub rules() {
    return rules;
  }

  /** The generated blocking stub of MatchService: steps, dice, the cube, resignations, score, clocks, rulesets. */
  public MatchServiceGrpc.MatchServiceBlockingStub match() {
    return match;
  }

  /** The generated blocking stub of RefereeService: NewMatch, ListActions, Act. */
  public RefereeServiceGrpc.RefereeServiceBlockingStub referee() {
    return referee;
  }

  /** The generated blocking stub of RecordsService (ValidateMatch, ExportMatch; {@link #validateMatch} streams the first). */
  public RecordsServiceGrpc.RecordsServiceBlockingStub records() {
    return records;
  }

  /**
   * The generated blocking stub of AnalysisService: move, position, cube and match analysis and the
   * computer opponent (docs/analysis.md).
   */
  public AnalysisServiceGrpc.AnalysisServiceBlockingStub analysis() {
    return analysis;
  }

  /** The channel. */
  public ManagedChannel channel() {
    return channel;
  }

  /** A position given by its Position ID; on roll unset means white. */
  public static Position byId(String positionId) {
    return Position.newBuilder().setPositionId(positionId).build(); // the checkers oneof
  }

  /** A move given by its notation, e.g. "24/23 13/8". */
  public static Move notation(String notation) {
    return Move.newBuilder().setNotation(notation).build();
  }

  /** The starting position with {@code onRoll} on roll. */
  public Position getInitialPosition(Side onRoll) {
    return rules.getInitialPosition(
            GetInitialPositionRequest.newBuilder().setRuleset(ruleset).setOnRoll(onRoll).build())
        .getPosition();
  }

  /** Every legal move for the roll; never empty (one empty move when no die can be played). */
  public List<Move> listLegalMoves(Position position, int d1, int d2) {
    return rules.listLegalMoves(
            ListLegalMovesRequest.newBuilder()
                .setRuleset(ruleset)
                .setPosition(position)
                .addDice(d1)
                .addDice(d2)
                .build())
        .getMovesList();
  }

  /** Play {@code move} (one of {@link #listLegalMoves}, or {@link #notation}); returns the next position. */
  public ApplyMoveResponse applyMove(Position position, int d1, int d2, Move move) {
    return rules.applyMove(
        ApplyMoveRequest.newBuilder()
            .setRuleset(ruleset)
            .setPosition(position)
            .addDice(d1)
            .addDice(d2)
            .setMove(move)
            .build());
  }

  /** Whether the game is over (one side has borne off all its checkers: 15, hypergammon 3) and, if so, its result. */
  public ScoreGameResponse scoreGame(Position position) {
    return rules.scoreGame(
        ScoreGameRequest.newBuilder().setRuleset(ruleset).setPosition(position).build());
  }

  /** Bear-off figures of both sides, race odds, and with dice the ranked moves. */
  public BearOffResponse bearOff(Position position, int... dice) {
    BearOffRequest.Builder request =
        BearOffRequest.newBuilder().setRuleset(ruleset).setPosition(position);
    for (int d : dice) {
      request.addDice(d);
    }
    return rules.bearOff(request.build());
  }

  /**
   * The legal next single-die steps after {@code steps} (checker by checker), whether they make a
   * complete move, and its outcome when it ends the game; {@code match} sets the cube.
   */
  public ListLegalStepsResponse listLegalSteps(
      Position position, List<Integer> dice, List<CheckerMove> steps, MatchState match) {
    return this.match.listLegalSteps(
        ListLegalStepsRequest.newBuilder()
            .setRuleset(ruleset)
            .setPosition(position)
            .addAllDice(dice)
            .addAllSteps(steps)
            .setMatch(match)
            .build());
  }

  /** Start a game of {@code match}, the server rolling: starter, dice (larger first), roll-off. */
  public StartGameResponse startGame(MatchState match) {
    return this.match.startGame(StartGameRequest.newBuilder().setRuleset(ruleset).setMatch(match).build());
  }

  /** Two dice, larger first, with their Turkish name. */
  public RollDiceResponse rollDice() {
    return this.match.rollDice(RollDiceRequest.getDefaultInstance());
  }

  /**
   * Two dice, larger first, with their Turkish name, and whether {@code position} has a checker on
   * the bar the roll cannot enter ("gele"), the position read under the client's ruleset.
   */
  public RollDiceResponse rollDice(Position position) {
    return rollDice(position, ruleset);
  }

  /** As {@link #rollDice(Position)}, the position read under {@code ruleset}. */
  public RollDiceResponse rollDice(Position position, Ruleset ruleset) {
    return this.match.rollDice(RollDiceRequest.newBuilder().setPosition(position).setRuleset(ruleset).build());
  }

  /** The cube actions {@code side} may take now, and why it may not double. */
  public ListCubeActionsResponse listCubeActions(MatchState match, Side side) {
    return this.match.listCubeActions(
        ListCubeActionsRequest.newBuilder().setRuleset(ruleset).setMatch(match).setSide(side).build());
  }

  /** The match after a cube action of {@code side}; a drop ends the game with its outcome. */
  public ApplyCubeActionResponse applyCubeAction(MatchState match, Side side, CubeAction action) {
    return this.match.applyCubeAction(
        ApplyCubeActionRequest.newBuilder()
            .setRuleset(ruleset)
            .setMatch(match)
            .setSide(side)
            .setAction(action)
            .build());
  }

  /** The match after a finished game: pass any answer's outcome unchanged. */
  public UpdateMatchResponse updateMatch(MatchState match, GameOutcome outcome) {
    return this.match.updateMatch(
        UpdateMatchRequest.newBuilder().setRuleset(ruleset).setMatch(match).setOutcome(outcome).build());
  }

  /** The hex SHA-256 of a client seed (UTF-8), the form {@link #commitDice} sends (never the seed). */
  public static String seedSha256(String clientSeed) {
    try {
      StringBuilder hex = new StringBuilder(64);
      for (byte b : MessageDigest.getInstance("SHA-256").digest(clientSeed.getBytes(StandardCharsets.UTF_8))) {
        hex.append(String.format("%02x", b));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /**
   * A commitment and a token to roll verifiable dice with (docs/dice.md), bound to the client seed
   * the players fixed first, given by its {@link #seedSha256} ("" binds none).
   */
  public CommitDiceResponse commitDice(String clientSeedSha256) {
    return this.match.commitDice(CommitDiceRequest.newBuilder().setClientSeedSha256(clientSeedSha256).build());
  }

  /** The Turkish name of the roll {@code d1}-{@code d2} (R26), e.g. "penç yek" for 5-1. */
  public NameRollResponse nameRoll(int d1, int d2) {
    return rules.nameRoll(NameRollRequest.newBuilder().addDice(d1).addDice(d2).build());
  }

  /** What {@code side}'s resignation of {@code kind} (single, gammon, backgammon) pays if accepted. */
  public OfferResignationResponse offerResignation(MatchState match, Side side, ResultKind kind) {
    return this.match.offerResignation(
        OfferResignationRequest.newBuilder()
            .setRuleset(ruleset)
            .setMatch(match)
            .setOffer(ResignationOffer.newBuilder().setSide(side).setKind(kind))
            .build());
  }

  /** Accept (the game ends with its outcome) or reject {@code side}'s resignation of {@code kind}. */
  public AnswerResignationResponse answerResignation(MatchState match, Side side, ResultKind kind, boolean accept) {
    return this.match.answerResignation(
        AnswerResignationRequest.newBuilder()
            .setRuleset(ruleset)
            .setMatch(match)
            .setOffer(ResignationOffer.newBuilder().setSide(side).setKind(kind))
            .setAccept(accept)
            .build());
  }

  /**
   * The clock after {@code side} used {@code elapsed} (whole milliseconds) on {@code event}
   * ({@code CLOCK_EVENT_UNSPECIFIED}: a move), or the forfeit it causes; {@code state} null is the
   * clock at the match's start.
   */
  public AdvanceClockResponse advanceClock(
      ClockSettings settings, ClockState state, Side side, ClockEvent event, java.time.Duration elapsed) {
    AdvanceClockRequest.Builder request =
        AdvanceClockRequest.newBuilder()
            .setSettings(settings)
            .setSide(side)
            .setEvent(event)
            .setElapsed(
                com.google.protobuf.Duration.newBuilder()
                    .setSeconds(elapsed.getSeconds())
                    .setNanos(elapsed.getNano()));
    if (state != null) {
      request.setState(state);
    }
    return this.match.advanceClock(request.build());
  }

  /** The client's ruleset with its preset and every option resolved. */
  public ResolveRulesetResponse resolveRuleset() {
    return resolveRuleset(ruleset);
  }

  /** {@code ruleset} with its preset and every option resolved. */
  public ResolveRulesetResponse resolveRuleset(Ruleset ruleset) {
    return this.match.resolveRuleset(ResolveRulesetRequest.newBuilder().setRuleset(ruleset).build());
  }

  /**
   * A refereed match as a .mat or .sgf file (ExportMatch, docs/match-files.md): {@code state} is
   * its latest state, {@code records} every entry of the events' records the Act answers gave, in
   * order (they must lead to the state's record digest). The answer's content is the file; a
   * match in play gives its games so far.
   */
  public ExportMatchResponse exportMatch(SignedGameState state, List<ActionRecord> records, ExportFormat format) {
    return this.records.exportMatch(
        ExportMatchRequest.newBuilder().setState(state).addAllRecords(records).setFormat(format).build());
  }

  /** The named rulesets with their options. */
  public ListRulesetsResponse listRulesets() {
    return this.match.listRulesets(ListRulesetsRequest.getDefaultInstance());
  }

  /**
   * Every variant's facts (direction, contact, bar, checkers, home, options), from one
   * ListRulesets call made the first time and kept for the client's life (a failed call is not
   * kept).
   */
  public VariantTable variants() {
    VariantTable kept = variants.get();
    if (kept == null) {
      variants.compareAndSet(null, new VariantTable(listRulesets().getPresetsList()));
      kept = variants.get();
    }
    return kept;
  }

  /**
   * The facts of the variant or preset called {@code name} (any alias; case, spaces and hyphens
   * ignored).
   *
   * @throws IllegalArgumentException an unknown name (the message names the known ones)
   */
  public VariantFacts variantFacts(String name) {
    return variants().facts(name);
  }

  /**
   * The board as an SVG document and as text, with {@code dice}, the match score and the cube when
   * given ({@code match} and {@code options} may be null; docs/formats.md).
   */
  public RenderPositionResponse renderPosition(
      Position position, List<Integer> dice, MatchState match, RenderOptions options) {
    RenderPositionRequest.Builder request =
        RenderPositionRequest.newBuilder().setRuleset(ruleset).setPosition(position).addAllDice(dice);
    if (match != null) {
      request.setMatch(match);
    }
    if (options != null) {
      request.setOptions(options);
    }
    return rules.renderPosition(request.build());
  }

  /** A refereed money game or match of {@code length} points, with no clock: see {@link #newMatch(int, ClockSettings, String)}. */
  public NewMatchResponse newMatch(int length) {
    return newMatch(length, null, "");
  }

  /**
   * The first state of a refereed match (docs/game-state.md) of {@code length} points (0: money
   * play), {@code clock} null for none, {@code matchId} "" for one the server picks: keep the
   * answer's state and send it back with the next action.
   */
  public NewMatchResponse newMatch(int length, ClockSettings clock, String matchId) {
    NewMatchRequest.Builder request =
        NewMatchRequest.newBuilder().setRuleset(ruleset).setLength(length).setMatchId(matchId);
    if (clock != null) {
      request.setClock(clock);
    }
    return referee.newMatch(request.build());
  }

  /**
   * The legal actions of the side to act in {@code state}, with its view: what the answer that
   * returned {@code state} already gave (needed only for a state kept elsewhere).
   */
  public ListActionsResponse listActions(SignedGameState state) {
    return referee.listActions(ListActionsRequest.newBuilder().setState(state).build());
  }

  /**
   * One round trip per action: the next state after {@code action} (one of the last answer's
   * actions, or one built with {@link #action}), its view, its legal actions, and the events with
   * the record entries the action added ({@code getEvents().getRecordsList()}: append them to keep
   * the record).
   */
  public ActResponse act(SignedGameState state, GameAction action) {
    return referee.act(ActRequest.newBuilder().setState(state).setAction(action).build());
  }

  /**
   * {@link #act} on a test server ({@code --test-inputs}, state mode off) with the dice of a
   * START_GAME or ROLL given, sent as {@link #TEST_DICE_KEY}; any other server refuses them
   * (CLIENT_DICE_REFUSED).
   */
  public ActResponse actWithTestDice(SignedGameState state, GameAction action, int... dice) {
    Metadata headers = new Metadata();
    StringBuilder text = new StringBuilder();
    for (int d : dice) {
      text.append(text.length() == 0 ? "" : ",").append(d);
    }
    headers.put(Metadata.Key.of(TEST_DICE_KEY, Metadata.ASCII_STRING_MARSHALLER), text.toString());
    return referee
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .act(ActRequest.newBuilder().setState(state).setAction(action).build());
  }

  /** A game action of {@code kind} by {@code side}, e.g. {@code action(ACTION_KIND_ROLL, side)}. */
  public static GameAction action(ActionKind kind, Side side) {
    return GameAction.newBuilder().setKind(kind).setSide(side).build();
  }

  /** {@link #suggestMove(Position, int, int, MatchState, AnalysisLevel, int)} in money play, the cube centred. */
  public SuggestMoveResponse suggestMove(Position position, int d1, int d2, AnalysisLevel level, int maxMoves) {
    return suggestMove(position, d1, d2, null, level, maxMoves);
  }

  /**
   * The legal moves of the roll {@code d1}-{@code d2} ranked for the side on roll (SuggestMove,
   * docs/analysis.md): the moves in the level's order of preference (the first is the one the
   * level plays; with the noise of the levels below EXPERT not always the best equity), each with
   * its equity per unit of the cube, its equity loss against the best and the mover's chances.
   *
   * @param match the score, Crawford and cube; null: money play with the cube centred (a 1-point
   *     match for a ruleset without money play)
   * @param level {@code ANALYSIS_LEVEL_UNSPECIFIED} is EXPERT (2-ply)
   * @param maxMoves the most moves to return, best first; 0 returns every legal move
   */
  public SuggestMoveResponse suggestMove(
      Position position, int d1, int d2, MatchState match, AnalysisLevel level, int maxMoves) {
    SuggestMoveRequest.Builder request =
        SuggestMoveRequest.newBuilder()
            .setRuleset(ruleset)
            .setPosition(position)
            .addDice(d1)
            .addDice(d2)
            .setLevel(level)
            .setMaxMoves(maxMoves);
    if (match != null) {
      request.setMatch(match);
    }
    return analysis.suggestMove(request.build());
  }

  /**
   * The side on roll's chances (each 0-1) and equity before it rolls (EvaluatePosition): cubeless,
   * and with the cube as {@code match} (null as in {@link #suggestMove}) has it.
   */
  public EvaluatePositionResponse evaluatePosition(Position position, MatchState match, AnalysisLevel level) {
    EvaluatePositionRequest.Builder request =
        EvaluatePositionRequest.newBuilder().setRuleset(ruleset).setPosition(position).setLevel(level);
    if (match != null) {
      request.setMatch(match);
    }
    return analysis.evaluatePosition(request.build());
  }

  /**
   * Whether the side on roll should double and the other side take (R19-R21; SuggestCubeAction):
   * the advice, whether it may double (else the ErrorReason name why) and the no-double,
   * double/take and double/pass equities per unit of the cube; {@code match} null as in {@link
   * #suggestMove}.
   */
  public SuggestCubeActionResponse suggestCubeAction(Position position, MatchState match, AnalysisLevel level) {
    SuggestCubeActionRequest.Builder request =
        SuggestCubeActionRequest.newBuilder().setRuleset(ruleset).setPosition(position).setLevel(level);
    if (match != null) {
      request.setMatch(match);
    }
    return analysis.suggestCubeAction(request.build());
  }

  /**
   * A Jellyfish .mat record, as text, reviewed (AnalyzeMatch, docs/match-files.md): white's
   * (player 1's) and black's error rates and performance ratings, and every decision's error. The
   * client's ruleset is the rules it was played by (the default instance: the international rules
   * with the record's headers); {@code ANALYSIS_LEVEL_UNSPECIFIED} is ADVANCED. An .sgf record
   * goes through {@link #analysis()} with {@code setSgf}.
   */
  public AnalyzeMatchResponse analyzeMatch(String mat, AnalysisLevel level) {
    AnalyzeMatchRequest.Builder request = AnalyzeMatchRequest.newBuilder().setMat(mat).setLevel(level);
    if (!ruleset.equals(Ruleset.getDefaultInstance())) { // unset reads the record's headers
      request.setRuleset(ruleset);
    }
    return analysis.analyzeMatch(request.build());
  }

  /**
   * {@link #analyzeMatch} with its progress, for a frontend to show while it waits
   * (StreamAnalyzeMatch, a server stream): {@code each} gets every progress message as it comes
   * (decisions judged so far of the total, and the game), in order; the review, equal to
   * AnalyzeMatch's, is returned at the end. An exception from {@code each} cancels the call (the
   * server stops its analysis) and is thrown.
   */
  public AnalyzeMatchResponse streamAnalyzeMatch(
      String mat, AnalysisLevel level, Consumer<AnalyzeMatchProgress> each) {
    StreamAnalyzeMatchRequest.Builder request = StreamAnalyzeMatchRequest.newBuilder().setMat(mat).setLevel(level);
    if (!ruleset.equals(Ruleset.getDefaultInstance())) { // unset reads the record's headers
      request.setRuleset(ruleset);
    }
    Context.CancellableContext call = Context.current().withCancellation();
    Context previous = call.attach();
    try {
      Iterator<StreamAnalyzeMatchResponse> messages = analysis.streamAnalyzeMatch(request.build());
      while (messages.hasNext()) {
        StreamAnalyzeMatchResponse message = messages.next();
        if (message.hasResult()) {
          return message.getResult();
        }
        each.accept(message.getProgress());
      }
      throw Status.INTERNAL.withDescription("StreamAnalyzeMatch ended without its result").asRuntimeException();
    } finally {
      call.detach(previous);
      call.cancel(null); // ends the call if it is still open (each threw)
    }
  }

  /**
   * The computer's action for the side to act in a referee state (SuggestAction): send it to
   * {@link #act} with the same state, two calls per action. It never resigns and never claims a
   * timeout; {@code ANALYSIS_LEVEL_UNSPECIFIED} is EXPERT.
   */
  public SuggestActionResponse suggestAction(SignedGameState state, AnalysisLevel level) {
    return analysis.suggestAction(SuggestActionRequest.newBuilder().setState(state).setLevel(level).build());
  }

  /** {@link #validateMatch(InputStream, RecordFormat, ValidationRules, String)} with the format sniffed and the default rules. */
  public List<ValidateMatchResponse> validateMatch(InputStream record, String source)
      throws IOException, InterruptedException {
    return validateMatch(
        record, RecordFormat.RECORD_FORMAT_UNSPECIFIED, ValidationRules.VALIDATION_RULES_UNSPECIFIED, source);
  }

  /**
   * Check the .mat or .sgf match records read from {@code record} on the server (ValidateMatch, a
   * stream sent in 64 KiB chunks as the server takes them): the verdicts, one per game as it
   * completes, then one per record.
   *
   * @throws StatusRuntimeException when the call fails
   * @throws IOException when reading {@code record} fails (the call is cancelled)
   */
  public List<ValidateMatchResponse> validateMatch(
      InputStream record, RecordFormat format, ValidationRules rules, String source)
      throws IOException, InterruptedException {
    ValidateCall call =
        new ValidateCall(
            record, ValidateMatchRequest.newBuilder().setFormat(format).setRules(rules).setSource(source));
    asyncRecords.validateMatch(call);
    try {
      call.done.get();
    } catch (ExecutionException e) {
      if (call.readError != null) {
        throw call.readError;
      }
      if (e.getCause() instanceof StatusRuntimeException) {
        throw (StatusRuntimeException) e.getCause();
      }
      throw Status.fromThrowable(e.getCause()).asRuntimeException();
    } catch (InterruptedException e) {
      call.requests.cancel("interrupted", e);
      throw e;
    }
    return List.copyOf(call.verdicts);
  }

  /** One ValidateMatch call: sends the record while the server is ready, collects the verdicts. */
  private static final class ValidateCall
      implements ClientResponseObserver<ValidateMatchRequest, ValidateMatchResponse> {
    private static final int CHUNK_BYTES = 32 << 10; // with its framing, below the server's 64 KiB request limit
    final List<ValidateMatchResponse> verdicts = Collections.synchronizedList(new ArrayList<>());
    final CompletableFuture<Void> done = new CompletableFuture<>();
    volatile IOException readError;
    volatile ClientCallStreamObserver<ValidateMatchRequest> requests;
    private final InputStream record;
    private ValidateMatchRequest.Builder first; // the options; null once sent
    private boolean sent; // onReady handlers run one at a time

    ValidateCall(InputStream record, ValidateMatchRequest.Builder first) {
      this.record = record;
      this.first = first;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<ValidateMatchRequest> requests) {
      this.requests = requests;
      requests.setOnReadyHandler(this::send);
    }

    private void send() {
      byte[] buffer = new byte[CHUNK_BYTES];
      while (!sent && requests.isReady()) {
        int n;
        try {
          n = record.read(buffer);
        } catch (IOException e) {
          readError = e;
          sent = true;
          requests.cancel("reading the record failed", e);
          return;
        }
        if (n < 0) {
          if (first != null) { // an empty record: the options still go
            requests.onNext(first.build());
          }
          sent = true;
          requests.onCompleted();
          return;
        }
        ValidateMatchRequest.Builder request = first != null ? first : ValidateMatchRequest.newBuilder();
        first = null;
        requests.onNext(request.setChunk(ByteString.copyFrom(buffer, 0, n)).build());
      }
    }

    @Override
    public void onNext(ValidateMatchResponse verdict) {
      verdicts.add(verdict);
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(null);
    }
  }

  /** Shut the channel down, waiting up to 5 s for calls in flight. */
  @Override
  public void close() throws InterruptedException {
    channel.shutdown();
    if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
      channel.shutdownNow();
    }
  }
}
