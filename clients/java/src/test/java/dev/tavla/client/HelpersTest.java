package dev.tavla.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tavla.v1.ActResponse;
import dev.tavla.v1.ActionKind;
import dev.tavla.v1.AdvanceClockResponse;
import dev.tavla.v1.BearOffResponse;
import dev.tavla.v1.ClockEvent;
import dev.tavla.v1.ClockSettings;
import dev.tavla.v1.AnalysisServiceGrpc;
import dev.tavla.v1.MatchServiceGrpc;
import dev.tavla.v1.RecordsServiceGrpc;
import dev.tavla.v1.RefereeServiceGrpc;
import dev.tavla.v1.RulesServiceGrpc;
import dev.tavla.v1.ActionRecord;
import dev.tavla.v1.GameAction;
import dev.tavla.v1.GamePhase;
import dev.tavla.v1.GameView;
import dev.tavla.v1.GameVerdict;
import dev.tavla.v1.ListActionsResponse;
import dev.tavla.v1.MatchState;
import dev.tavla.v1.NewMatchResponse;
import dev.tavla.v1.Position;
import dev.tavla.v1.RecordFormat;
import dev.tavla.v1.RecordVerdict;
import dev.tavla.v1.RenderPositionResponse;
import dev.tavla.v1.ResultKind;
import dev.tavla.v1.RulesetPreset;
import dev.tavla.v1.Ruleset;
import dev.tavla.v1.Side;
import dev.tavla.v1.SignedGameState;
import dev.tavla.v1.ValidateMatchResponse;
import dev.tavla.v1.ValidationRules;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every RPC has a helper ({@link TavlaClient#HELPERS}), and the helpers work against the live
 * server: the referee API plays a short match, the rest answer with real values.
 */
class HelpersTest {
  /** The helpers that answer with something other than the RPC's response. */
  private static final Map<String, Class<?>> OTHERS =
      Map.of(
          "GetInitialPosition", Position.class,
          "ListLegalMoves", List.class,
          "ValidateMatch", List.class,
          "StreamAnalyzeMatch", dev.tavla.v1.AnalyzeMatchResponse.class); // progress goes to a callback

  @Test
  void everyRpcHasAHelper() {
    List<String> problems = new ArrayList<>();
    List<MethodDescriptor<?, ?>> methods = new ArrayList<>();
    methods.addAll(RulesServiceGrpc.getServiceDescriptor().getMethods());
    methods.addAll(MatchServiceGrpc.getServiceDescriptor().getMethods());
    methods.addAll(RefereeServiceGrpc.getServiceDescriptor().getMethods());
    methods.addAll(RecordsServiceGrpc.getServiceDescriptor().getMethods());
    methods.addAll(AnalysisServiceGrpc.getServiceDescriptor().getMethods());
    assertEquals(methods.size(), TavlaClient.HELPERS.size(), "one helper per RPC");
    for (MethodDescriptor<?, ?> rpc : methods) {
      String name = rpc.getBareMethodName();
      String helper = TavlaClient.HELPERS.get(name);
      if (helper == null) {
        problems.add(name + " has no helper in HELPERS");
        continue;
      }
      Class<?> response =
          ((MethodDescriptor.PrototypeMarshaller<?>) rpc.getResponseMarshaller()).getMessagePrototype().getClass();
      Class<?> want = OTHERS.getOrDefault(name, response);
      Set<Class<?>> returns =
          java.util.Arrays.stream(TavlaClient.class.getMethods())
              .filter(m -> m.getName().equals(helper) && !Modifier.isStatic(m.getModifiers()))
              .map(Method::getReturnType)
              .collect(Collectors.toSet());
      if (!returns.equals(Set.of(want))) {
        problems.add(name + ": " + helper + " returns " + returns + ", want " + want.getSimpleName());
      }
    }
    assertEquals(List.of(), problems);
  }

  private static Side other(Side side) {
    return side == Side.SIDE_WHITE ? Side.SIDE_BLACK : Side.SIDE_WHITE;
  }

  /** A simple player: finish a move, else step, else roll; never double, resign or undo. */
  private static GameAction pick(List<GameAction> actions) {
    for (ActionKind kind :
        List.of(
            ActionKind.ACTION_KIND_CONFIRM_MOVE,
            ActionKind.ACTION_KIND_STEP,
            ActionKind.ACTION_KIND_ROLL,
            ActionKind.ACTION_KIND_START_GAME)) {
      for (GameAction a : actions) {
        if (a.getKind() == kind) {
          return a;
        }
      }
    }
    return null;
  }

  /**
   * A 1-point match through newMatch, listActions and act (the server runs in state mode off, so
   * act may give the dice): four moves each way, then a resignation the other side accepts, which
   * ends the match (docs/game-state.md; R3 start, R22 resignation).
   */
  @Test
  void refereeMatch() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      NewMatchResponse opened = client.newMatch(1, null, "java-client-test");
      assertEquals(GamePhase.GAME_PHASE_START, opened.getView().getPhase());
      assertEquals(1, opened.getView().getMatch().getLength());
      assertEquals("java-client-test", opened.getView().getMatchId());
      // The roll-off with dice 5 and 1: white's 5 beats black's 1 and plays 5-1.
      ActResponse started =
          client.actWithTestDice(opened.getState(), opened.getActions(0), 5, 1);
      assertEquals(GamePhase.GAME_PHASE_MOVING, started.getView().getPhase());
      assertEquals(Side.SIDE_WHITE, started.getView().getSideToAct());
      assertEquals(List.of(5, 1), started.getView().getDiceList());
      // one call per action: each answer has the next state, its view and its legal actions
      ActResponse last = started;
      List<ActionRecord> record = new ArrayList<>(started.getEvents().getRecordsList());
      int moves = 0;
      for (int calls = 0; moves < 8; calls++) {
        assertTrue(calls < 200, "no progress after " + calls + " actions");
        GameAction action = pick(last.getActionsList());
        assertNotNull(action, "nothing to play in " + last.getView().getPhase());
        assertEquals(last.getView().getSideToAct(), action.getSide());
        ActResponse acted = client.act(last.getState(), action);
        assertTrue(acted.getView().getSequence() > last.getView().getSequence());
        record.addAll(acted.getEvents().getRecordsList());
        if (action.getKind() == ActionKind.ACTION_KIND_CONFIRM_MOVE) {
          moves++;
          assertEquals(other(action.getSide()), acted.getView().getSideToAct());
        }
        last = acted;
      }
      SignedGameState state = last.getState();
      ListActionsResponse again = client.listActions(state);
      assertEquals(last.getView(), again.getView()); // ListActions answers what the last Act did
      assertEquals(last.getActionsList(), again.getActionsList());
      GameView game = again.getView();
      assertEquals(GamePhase.GAME_PHASE_ROLL_OR_DOUBLE, game.getPhase());
      assertEquals(Side.SIDE_WHITE, game.getSideToAct());
      GameAction resign =
          GameAction.newBuilder()
              .setKind(ActionKind.ACTION_KIND_RESIGN)
              .setSide(Side.SIDE_WHITE)
              .setResignKind(ResultKind.RESULT_KIND_SINGLE) // the detail oneof
              .build();
      ActResponse offered = client.act(state, resign);
      assertEquals(GamePhase.GAME_PHASE_RESIGNATION_DECISION, offered.getView().getPhase());
      assertEquals(Side.SIDE_BLACK, offered.getView().getSideToAct());
      ActResponse ended =
          client.act(offered.getState(), TavlaClient.action(ActionKind.ACTION_KIND_ACCEPT_RESIGNATION, Side.SIDE_BLACK));
      assertEquals(GamePhase.GAME_PHASE_MATCH_OVER, ended.getView().getPhase());
      assertTrue(ended.getEvents().hasOutcome()); // the game ended: its outcome is set
      assertEquals(Side.SIDE_BLACK, ended.getView().getMatch().getWinner());
      assertEquals(1, ended.getEvents().getOutcome().getPoints());
      assertEquals(List.of(0, 1), List.of(ended.getView().getMatch().getWhiteScore(), ended.getView().getMatch().getBlackScore()));
      // The record kept from the events: every entry once, in order, the last one ends the match.
      record.addAll(offered.getEvents().getRecordsList());
      record.addAll(ended.getEvents().getRecordsList());
      for (int i = 1; i < record.size(); i++) {
        assertTrue(record.get(i).getSequence() > record.get(i - 1).getSequence(), "record entry " + i);
      }
      assertEquals(1, record.get(record.size() - 1).getOutcome().getPoints());
      // A finished match takes no more actions.
      StatusRuntimeException e =
          assertThrows(
              StatusRuntimeException.class,
              () -> client.act(ended.getState(), TavlaClient.action(ActionKind.ACTION_KIND_ROLL, Side.SIDE_WHITE)));
      assertFalse(EngineError.from(e).reason().isEmpty());
    }
  }

  @Test
  void theOtherHelpers() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      Position start = TavlaClient.byId(TavlaClient.START_POSITION_ID);
      BearOffResponse bearOff = client.bearOff(start);
      assertEquals(167, bearOff.getBlack().getPipCount());
      assertFalse(bearOff.getWhite().getCanBearOff());
      var commit = client.commitDice(TavlaClient.seedSha256("players' seed"));
      assertFalse(commit.getCommitment().isEmpty() || commit.getToken().isEmpty());
      assertEquals(
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", TavlaClient.seedSha256(""));
      var name = client.nameRoll(5, 1).getName();
      assertEquals(List.of("penç yek", "5-1"), List.of(name.getTurkish(), name.getNumbers()));
      MatchState match = MatchState.newBuilder().setLength(5).build();
      var offer = client.offerResignation(match, Side.SIDE_WHITE, ResultKind.RESULT_KIND_GAMMON).getOutcome();
      assertEquals(List.of(2, Side.SIDE_BLACK), List.of(offer.getPoints(), offer.getWinner()));
      var accepted = client.answerResignation(match, Side.SIDE_WHITE, ResultKind.RESULT_KIND_SINGLE, true);
      assertTrue(accepted.hasOutcome());
      assertEquals(1, accepted.getOutcome().getPoints());
      assertFalse(client.answerResignation(match, Side.SIDE_WHITE, ResultKind.RESULT_KIND_SINGLE, false).hasOutcome());
      // 3 s over the 12 s move time: white uses one of its 3 extensions, black keeps its own.
      AdvanceClockResponse clock =
          client.advanceClock(
              ClockSettings.newBuilder().setMoveTime(com.google.protobuf.Duration.newBuilder().setSeconds(12)).build(),
              null,
              Side.SIDE_WHITE,
              ClockEvent.CLOCK_EVENT_MOVE,
              java.time.Duration.ofSeconds(15));
      assertFalse(clock.hasForfeit());
      assertEquals(
          List.of(1, 2, 3),
          List.of(
              clock.getExtensionsUsed(),
              clock.getState().getWhite().getExtensionsLeft(),
              clock.getState().getBlack().getExtensionsLeft()));
      TavlaClient turkish = client.withRuleset(Ruleset.newBuilder().setPreset("turkish").build());
      assertEquals("turkish", turkish.resolveRuleset().getRuleset().getPreset());
      assertEquals("turkish", client.resolveRuleset(Ruleset.newBuilder().setPreset("turkish").build()).getRuleset().getPreset());
      Set<String> presets =
          client.listRulesets().getPresetsList().stream().map(RulesetPreset::getName).collect(Collectors.toSet());
      assertTrue(presets.containsAll(Set.of("turkish", "international")), presets.toString());
      RenderPositionResponse render = client.renderPosition(start, List.of(5, 1), null, null);
      assertTrue(render.getSvg().contains("<svg"));
      assertFalse(render.getText().isEmpty());
      assertEquals(TavlaClient.START_POSITION_ID, render.getPosition().getIds().getPositionId());
    }
  }

  @Test
  void validateMatch() throws Exception {
    byte[] record = Files.readAllBytes(LiveServer.repoRoot().resolve("tests/data/matches/match0023.mat"));
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      List<ValidateMatchResponse> verdicts =
          client.validateMatch(
              new ByteArrayInputStream(record), RecordFormat.RECORD_FORMAT_MAT, ValidationRules.VALIDATION_RULES_AUTO, "match0023.mat");
      assertEquals(2, verdicts.size(), verdicts.toString());
      GameVerdict game = verdicts.get(0).getGame();
      RecordVerdict whole = verdicts.get(1).getRecord();
      assertEquals(List.of("match0023.mat", 1), List.of(game.getSource(), game.getGameNumber()));
      assertTrue(game.getPlaysChecked() > 0 && !game.hasFirstIllegal() && game.getPointsAgree(), game.toString());
      assertTrue(whole.getReadable(), whole.toString());
      assertEquals(List.of(1, game.getPlaysChecked()), List.of(whole.getGames(), whole.getPlaysChecked()));
      assertEquals(verdicts, client.validateMatch(new ByteArrayInputStream(record), "match0023.mat"));
      // A failing reader cancels the call, and its error comes back.
      IOException broken = new IOException("disk on fire");
      InputStream failing =
          new InputStream() {
            @Override
            public int read() throws IOException {
              throw broken;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
              throw broken;
            }
          };
      assertSame(broken, assertThrows(IOException.class, () -> client.validateMatch(failing, "broken")));
    }
  }
}
