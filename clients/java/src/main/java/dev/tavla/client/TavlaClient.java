package dev.tavla.client;

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
import dev.tavla.v1.EngineServiceGrpc;
import dev.tavla.v1.GetInitialPositionRequest;
import dev.tavla.v1.ListLegalMovesRequest;
import dev.tavla.v1.Move;
import dev.tavla.v1.Position;
import dev.tavla.v1.Ruleset;
import dev.tavla.v1.ScoreGameRequest;
import dev.tavla.v1.ScoreGameResponse;
import dev.tavla.v1.Side;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A client of {@code tavla.v1.EngineService}, the stateless tavla and backgammon rules engine: a
 * small typed wrapper over the generated stubs in {@code dev.tavla.v1}.
 *
 * <p>{@link #create(String)} opens a plaintext channel with the default service config that every
 * tavla client shares ({@link #SERVICE_CONFIG}: a 30 s deadline for calls without one, up to 5
 * attempts on {@code UNAVAILABLE}). {@link #stub()} has every RPC with its full request and
 * response. Calls fail with {@link io.grpc.StatusRuntimeException}; {@link EngineError#from}
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
                  "name", List.of(Map.of("service", "tavla.v1.EngineService")),
                  "timeout", "30s",
                  "retryPolicy",
                      Map.of(
                          "maxAttempts", 5.0,
                          "initialBackoff", "0.1s",
                          "maxBackoff", "2s",
                          "backoffMultiplier", 2.0,
                          "retryableStatusCodes", List.of("UNAVAILABLE"))),
              // ValidateMatch streams a whole archive: no timeout and no retry
              Map.of(
                  "name",
                  List.of(Map.of("service", "tavla.v1.EngineService", "method", "ValidateMatch")))));

  private final ManagedChannel channel;
  private final EngineServiceGrpc.EngineServiceBlockingStub stub;
  private final Ruleset ruleset;

  /** The request metadata that picks the language of the player messages ("en", "tr"). */
  public static final String LOCALE_KEY = "x-tavla-locale";

  private TavlaClient(ManagedChannel channel, Ruleset ruleset) {
    this(channel, ruleset, EngineServiceGrpc.newBlockingStub(channel));
  }

  private TavlaClient(ManagedChannel channel, Ruleset ruleset, EngineServiceGrpc.EngineServiceBlockingStub stub) {
    this.channel = channel;
    this.stub = stub;
    this.ruleset = ruleset;
  }

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
    return new TavlaClient(channel, ruleset, stub);
  }

  /**
   * The same client sending {@code locale} ("tr" or "en") as {@link #LOCALE_KEY} with every call:
   * the language of the player messages ({@link EngineError#localized()}).
   */
  public TavlaClient withLocale(String locale) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of(LOCALE_KEY, Metadata.ASCII_STRING_MARSHALLER), locale);
    return new TavlaClient(
        channel, ruleset, stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers)));
  }

  /** The generated blocking stub: every RPC with its full request and response. */
  public EngineServiceGrpc.EngineServiceBlockingStub stub() {
    return stub;
  }

  /** The channel. */
  public ManagedChannel channel() {
    return channel;
  }

  /** A position given by its Position ID; on roll unset means white. */
  public static Position byId(String positionId) {
    return Position.newBuilder().setPositionId(positionId).build();
  }

  /** A move given by its notation, e.g. "24/23 13/8". */
  public static Move notation(String notation) {
    return Move.newBuilder().setNotation(notation).build();
  }

  /** The starting position with {@code onRoll} on roll. */
  public Position initialPosition(Side onRoll) {
    return stub.getInitialPosition(
            GetInitialPositionRequest.newBuilder().setRuleset(ruleset).setOnRoll(onRoll).build())
        .getPosition();
  }

  /** Every legal move for the roll; never empty (one empty move when no die can be played). */
  public List<Move> legalMoves(Position position, int d1, int d2) {
    return stub.listLegalMoves(
            ListLegalMovesRequest.newBuilder()
                .setRuleset(ruleset)
                .setPosition(position)
                .addDice(d1)
                .addDice(d2)
                .build())
        .getMovesList();
  }

  /** Play {@code move} (one of {@link #legalMoves}, or {@link #notation}); returns the next position. */
  public ApplyMoveResponse applyMove(Position position, int d1, int d2, Move move) {
    return stub.applyMove(
        ApplyMoveRequest.newBuilder()
            .setRuleset(ruleset)
            .setPosition(position)
            .addDice(d1)
            .addDice(d2)
            .setMove(move)
            .build());
  }

  /** Whether the game is over and, if so, its result. */
  public ScoreGameResponse scoreGame(Position position) {
    return stub.scoreGame(
        ScoreGameRequest.newBuilder().setRuleset(ruleset).setPosition(position).build());
  }

  /** Bear-off figures of both sides, race odds, and with dice the ranked moves. */
  public BearOffResponse bearOff(Position position, int... dice) {
    BearOffRequest.Builder request =
        BearOffRequest.newBuilder().setRuleset(ruleset).setPosition(position);
    for (int d : dice) {
      request.addDice(d);
    }
    return stub.bearOff(request.build());
  }

  /**
   * The legal next single-die steps after {@code steps} (checker by checker), whether they make a
   * complete move, and its outcome when it ends the game; {@code match} sets the cube.
   */
  public ListLegalStepsResponse legalSteps(
      Position position, List<Integer> dice, List<CheckerMove> steps, MatchState match) {
    return stub.listLegalSteps(
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
    return stub.startGame(StartGameRequest.newBuilder().setRuleset(ruleset).setMatch(match).build());
  }

  /** Two dice, larger first, with their Turkish name. */
  public RollDiceResponse rollDice() {
    return stub.rollDice(RollDiceRequest.getDefaultInstance());
  }

  /** The cube actions {@code side} may take now, and why it may not double. */
  public ListCubeActionsResponse cubeActions(MatchState match, Side side) {
    return stub.listCubeActions(
        ListCubeActionsRequest.newBuilder().setRuleset(ruleset).setMatch(match).setSide(side).build());
  }

  /** The match after a cube action of {@code side}; a drop ends the game with its outcome. */
  public ApplyCubeActionResponse applyCubeAction(MatchState match, Side side, CubeAction action) {
    return stub.applyCubeAction(
        ApplyCubeActionRequest.newBuilder()
            .setRuleset(ruleset)
            .setMatch(match)
            .setSide(side)
            .setAction(action)
            .build());
  }

  /** The match after a finished game: pass any answer's outcome unchanged. */
  public UpdateMatchResponse updateMatch(MatchState match, GameOutcome outcome) {
    return stub.updateMatch(
        UpdateMatchRequest.newBuilder().setRuleset(ruleset).setMatch(match).setOutcome(outcome).build());
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
