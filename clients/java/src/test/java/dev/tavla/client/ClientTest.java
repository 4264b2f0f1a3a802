package dev.tavla.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import dev.tavla.v1.ApplyCubeActionResponse;
import dev.tavla.v1.CubeAction;
import dev.tavla.v1.RulesServiceGrpc;
import dev.tavla.v1.GetInitialPositionRequest;
import dev.tavla.v1.GetInitialPositionResponse;
import dev.tavla.v1.MatchState;
import dev.tavla.v1.ResultKind;
import dev.tavla.v1.RollDiceResponse;
import dev.tavla.v1.Ruleset;
import dev.tavla.v1.ScoreGameResponse;
import dev.tavla.v1.Side;
import dev.tavla.v1.StartGameResponse;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The client beyond the conformance scenarios: its default service config (the one every client
 * shares), retries of UNAVAILABLE and CANCELLED and nothing else, the helpers, and the README example.
 */
class ClientTest {
  @Test
  void serviceConfigIsTheSharedOne() throws Exception {
    String shared =
        Files.readString(LiveServer.repoRoot().resolve("clients/service_config.json"), StandardCharsets.UTF_8);
    Gson gson = new Gson();
    assertEquals(gson.fromJson(shared, Map.class), gson.fromJson(gson.toJson(TavlaClient.SERVICE_CONFIG), Map.class));
  }

  /** Fails GetInitialPosition with {@code code} the first {@code failures} times, then answers. */
  static final class Flaky extends RulesServiceGrpc.RulesServiceImplBase {
    final AtomicInteger calls = new AtomicInteger();
    final Status.Code code;
    final int failures;

    Flaky(Status.Code code, int failures) {
      this.code = code;
      this.failures = failures;
    }

    @Override
    public void getInitialPosition(
        GetInitialPositionRequest request, StreamObserver<GetInitialPositionResponse> observer) {
      if (calls.incrementAndGet() <= failures) {
        observer.onError(code.toStatus().withDescription("failing on purpose").asRuntimeException());
        return;
      }
      observer.onNext(
          GetInitialPositionResponse.newBuilder()
              .setPosition(TavlaClient.byId(TavlaClient.START_POSITION_ID))
              .build());
      observer.onCompleted();
    }
  }

  @ParameterizedTest
  @CsvSource({
    "UNAVAILABLE, 2, 3, OK",
    "UNAVAILABLE, 10, 5, UNAVAILABLE",
    "CANCELLED, 2, 3, OK",
    "INVALID_ARGUMENT, 1, 1, INVALID_ARGUMENT",
    "INTERNAL, 1, 1, INTERNAL"
  })
  void retries(Status.Code code, int failures, int calls, String outcome) throws Exception {
    Flaky flaky = new Flaky(code, failures);
    Server server = ServerBuilder.forPort(0).addService(flaky).build().start();
    try (TavlaClient client = TavlaClient.create("127.0.0.1:" + server.getPort())) {
      String got = "OK";
      try {
        client.getInitialPosition(Side.SIDE_WHITE);
      } catch (StatusRuntimeException e) {
        got = EngineError.from(e).codeName();
      }
      assertEquals(outcome, got);
      assertEquals(calls, flaky.calls.get());
    } finally {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void helpersAgainstTheServer() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      assertEquals(TavlaClient.START_POSITION_ID, client.getInitialPosition(Side.SIDE_BLACK).getIds().getPositionId());
      var start = TavlaClient.byId(TavlaClient.START_POSITION_ID);
      assertEquals(8, client.listLegalMoves(start, 5, 1).size());
      assertEquals(
          "4PPgASjgc/ABMA",
          client.applyMove(start, 5, 1, TavlaClient.notation("24/23 13/8")).getMove().getResult().getIds().getPositionId());
      assertFalse(client.scoreGame(start).hasOutcome());
      assertEquals(167, client.bearOff(start).getWhite().getPipCount());
      StatusRuntimeException e =
          assertThrows(StatusRuntimeException.class, () -> client.applyMove(start, 5, 1, TavlaClient.notation("13/8")));
      EngineError err = EngineError.from(e);
      assertEquals(
          List.of("INVALID_ARGUMENT", "MUST_USE_BOTH_DICE", "tavla.v1", Map.of("move", "13/8", "dice", "5-1"), List.of()),
          List.of(err.codeName(), err.reason(), err.domain(), err.metadata(), err.fields()));
      e = assertThrows(StatusRuntimeException.class, () -> client.listLegalMoves(start, 7, 1));
      assertEquals(List.of("dice"), EngineError.from(e).fields());
      ScoreGameResponse score =
          client.withRuleset(Ruleset.newBuilder().setPreset("turkish").build())
              .scoreGame(TavlaClient.byId("APD/A0AAAAAAAA")); // katmerli mars pays 2 in the turkish preset
      assertEquals(ResultKind.RESULT_KIND_BACKGAMMON, score.getOutcome().getKind());
      assertEquals(2, score.getOutcome().getPoints());
      assertEquals(2, score.getOutcome().getPoints()); // the one end-of-game type
    }
  }

  @Test
  void matchHelpersAndTurkishMessages() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      TavlaClient turkish = client.withLocale("tr");
      MatchState match = MatchState.newBuilder().setLength(3).build();
      StartGameResponse start = turkish.startGame(match);
      assertTrue(start.getDice(0) >= start.getDice(1)); // every roll: larger first
      assertFalse(
          turkish.listLegalSteps(start.getPosition(), start.getDiceList(), List.of(), match).getNextStepsList().isEmpty());
      RollDiceResponse roll = turkish.rollDice();
      assertTrue(roll.getDice(0) >= roll.getDice(1));
      Side side = start.getStarter();
      Side other = side == Side.SIDE_WHITE ? Side.SIDE_BLACK : Side.SIDE_WHITE;
      assertEquals(List.of(CubeAction.CUBE_ACTION_DOUBLE), turkish.listCubeActions(match, side).getActionsList());
      MatchState doubled = turkish.applyCubeAction(match, side, CubeAction.CUBE_ACTION_DOUBLE).getMatch();
      ApplyCubeActionResponse dropped = turkish.applyCubeAction(doubled, other, CubeAction.CUBE_ACTION_DROP);
      assertTrue(dropped.hasOutcome());
      assertEquals(1, turkish.updateMatch(dropped.getMatch(), dropped.getOutcome()).getPointsScored());
      var startPosition = TavlaClient.byId(TavlaClient.START_POSITION_ID);
      StatusRuntimeException e =
          assertThrows(StatusRuntimeException.class, () -> turkish.applyMove(startPosition, 5, 1, TavlaClient.notation("13/8")));
      EngineError err = EngineError.from(e);
      assertEquals("tr", err.locale());
      assertEquals("Penç yek (5-1) attın; iki zar da oynanabiliyor, ikisini de oynamak zorundasın.", err.localized());
    }
  }

  @Test
  void readmeExampleIsTheQuickstartAndRuns() throws Exception {
    String quickstart =
        Files.readString(
            LiveServer.repoRoot().resolve("clients/java/src/test/java/dev/tavla/examples/Quickstart.java"),
            StandardCharsets.UTF_8);
    String readme = Files.readString(LiveServer.repoRoot().resolve("clients/java/README.md"), StandardCharsets.UTF_8);
    Matcher block = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertTrue(block.find(), "no java block in README.md");
    assertEquals(quickstart, block.group(1), "README.md's example must be Quickstart.java");
    PrintStream saved = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      dev.tavla.examples.Quickstart.main(new String[] {LiveServer.target()});
    } finally {
      System.setOut(saved);
    }
    String[] lines = out.toString(StandardCharsets.UTF_8).trim().split("\n");
    assertEquals("4PPgASjgc/ABMA", lines[lines.length - 1]);
  }
}
