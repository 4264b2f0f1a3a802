package dev.tavla.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tavla.v1.ActResponse;
import dev.tavla.v1.ActionKind;
import dev.tavla.v1.AnalysisLevel;
import dev.tavla.v1.AnalyzeMatchResponse;
import dev.tavla.v1.AnalyzedMove;
import dev.tavla.v1.CubeAdvice;
import dev.tavla.v1.EvaluatePositionResponse;
import dev.tavla.v1.Evaluator;
import dev.tavla.v1.Move;
import dev.tavla.v1.NewMatchResponse;
import dev.tavla.v1.PlayerReview;
import dev.tavla.v1.Position;
import dev.tavla.v1.Side;
import dev.tavla.v1.SuggestActionResponse;
import dev.tavla.v1.SuggestCubeActionResponse;
import dev.tavla.v1.SuggestMoveResponse;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The AnalysisService helpers against the live server at the cheap 1-ply levels: the start's 3-1
 * ranked among its legal moves, its prospects and cube, a 3-game .mat reviewed, the computer's
 * first two actions of a refereed match, each sent to act, and bad input refused; these hold
 * whichever evaluator the server has. What only bgsage's net judges ({@link #theNetJudgesTheStart})
 * is skipped where the server analyses by its search player (no bgsage there, e.g. Linux aarch64;
 * {@code TAVLA_TEST_WITHOUT_BGSAGE=1} makes such a server).
 */
class AnalysisTest {
  private static final AnalysisLevel LEVEL = AnalysisLevel.ANALYSIS_LEVEL_INTERMEDIATE;

  /**
   * What evaluates backgammon on the server, asked by one cheap 1-ply call: bgsage's net
   * (EVALUATOR_NEURAL_NET, in .venv-test) or the search player (EVALUATOR_SEARCH).
   */
  private static Evaluator serverEvaluator(TavlaClient client) {
    Evaluator kind =
        client
            .evaluatePosition(TavlaClient.byId(TavlaClient.START_POSITION_ID), null, AnalysisLevel.ANALYSIS_LEVEL_BEGINNER)
            .getInfo()
            .getEvaluator();
    assertTrue(List.of(Evaluator.EVALUATOR_NEURAL_NET, Evaluator.EVALUATOR_SEARCH).contains(kind), kind.toString());
    return kind;
  }

  @Test
  void movesPositionAndCube() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      Evaluator kind = serverEvaluator(client);
      Position start = TavlaClient.byId(TavlaClient.START_POSITION_ID);
      SuggestMoveResponse ranked = client.suggestMove(start, 3, 1, LEVEL, 3);
      assertEquals(3, ranked.getMovesCount());
      assertEquals(
          List.of(LEVEL, kind, 1),
          List.of(ranked.getInfo().getLevel(), ranked.getInfo().getEvaluator(), ranked.getInfo().getPly()));
      Set<String> legal =
          client.listLegalMoves(start, 3, 1).stream().map(Move::getNotation).collect(Collectors.toSet());
      // The level's noise orders them, so the best need not be among the 3: the losses differ as
      // the equities do.
      AnalyzedMove first = ranked.getMoves(0);
      for (AnalyzedMove m : ranked.getMovesList()) {
        String notation = m.getMove().getNotation();
        assertTrue(legal.contains(notation), notation + " is not a legal 3-1");
        assertTrue(m.getEquityLoss() >= 0, notation);
        assertEquals(first.getEquity() - m.getEquity(), m.getEquityLoss() - first.getEquityLoss(), 1e-9, notation);
      }
      EvaluatePositionResponse evaluated = client.evaluatePosition(start, null, LEVEL);
      double win = evaluated.getProbabilities().getWin();
      assertTrue(win > 0 && win < 1, "win " + win);
      assertTrue(evaluated.getProbabilities().getWinGammon() <= win);
      assertEquals(kind, evaluated.getInfo().getEvaluator());
      // No evaluator doubles at the start (a centered cube, money play).
      SuggestCubeActionResponse cube = client.suggestCubeAction(start, null, LEVEL);
      assertEquals(
          List.of(CubeAdvice.CUBE_ADVICE_NO_DOUBLE, true, false),
          List.of(cube.getAdvice(), cube.getDoubleAvailable(), cube.getShouldDouble()));
    }
  }

  /** bgsage's net: 8/5 6/5 the best 3-1 at the start, the side on roll just over even. */
  @Test
  void theNetJudgesTheStart() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      Evaluator kind = serverEvaluator(client);
      assumeTrue(
          kind == Evaluator.EVALUATOR_NEURAL_NET,
          "the server analyses by " + kind + ", not bgsage's net (bgsage not installed there)");
      Position start = TavlaClient.byId(TavlaClient.START_POSITION_ID);
      SuggestMoveResponse ranked = client.suggestMove(start, 3, 1, LEVEL, 3);
      AnalyzedMove best =
          ranked.getMovesList().stream().filter(m -> m.getEquityLoss() == 0).findFirst().orElse(null);
      assertNotNull(best, ranked.toString());
      assertEquals("8/5 6/5", best.getMove().getNotation()); // the point-making play
      EvaluatePositionResponse evaluated = client.evaluatePosition(start, null, LEVEL);
      double win = evaluated.getProbabilities().getWin();
      double gammon = evaluated.getProbabilities().getWinGammon();
      assertTrue(win > 0.5 && win < 0.56, "win " + win);
      assertTrue(gammon > 0 && gammon < win, "gammon " + gammon);
    }
  }

  /** Bad input: INVALID_ARGUMENT naming the field, whichever the evaluator. */
  @Test
  void badInput() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      Position start = TavlaClient.byId(TavlaClient.START_POSITION_ID);
      StatusRuntimeException e =
          assertThrows(StatusRuntimeException.class, () -> client.suggestMove(start, 7, 1, LEVEL, 3));
      EngineError err = EngineError.from(e);
      assertEquals(List.of("INVALID_ARGUMENT", List.of("dice")), List.of(err.codeName(), err.fields()));
      e = assertThrows(
          StatusRuntimeException.class,
          () -> client.analyzeMatch("not a match", AnalysisLevel.ANALYSIS_LEVEL_BEGINNER));
      err = EngineError.from(e);
      assertEquals(List.of("INVALID_ARGUMENT", List.of("mat")), List.of(err.codeName(), err.fields()));
    }
  }

  @Test
  void analyzeMatch() throws Exception {
    String mat =
        Files.readString(LiveServer.repoRoot().resolve("tests/data/matches/match0000.mat"), StandardCharsets.UTF_8);
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      AnalyzeMatchResponse review = client.analyzeMatch(mat, AnalysisLevel.ANALYSIS_LEVEL_BEGINNER);
      assertEquals(3, review.getGames());
      assertEquals(
          List.of(Side.SIDE_WHITE, Side.SIDE_BLACK),
          review.getPlayersList().stream().map(PlayerReview::getSide).collect(Collectors.toList()));
      assertTrue(review.getPlayersList().stream().allMatch(p -> p.getMoves() > 0 && p.getPerformanceRating() > 0));
      assertTrue(review.getDecisionsCount() > 0);
    }
  }

  @Test
  void streamAnalyzeMatch() throws Exception {
    String mat =
        Files.readString(LiveServer.repoRoot().resolve("tests/data/matches/match0000.mat"), StandardCharsets.UTF_8);
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      List<Integer> done = new java.util.ArrayList<>();
      AnalyzeMatchResponse review =
          client.streamAnalyzeMatch(
              mat,
              AnalysisLevel.ANALYSIS_LEVEL_ADVANCED,
              p -> {
                assertTrue(done.isEmpty() || p.getDecisionsDone() > done.get(done.size() - 1), "in order");
                assertTrue(p.getDecisionsDone() <= p.getDecisionsTotal() && p.getGames() == 3);
                done.add(p.getDecisionsDone());
              });
      assertTrue(done.size() > 100);
      assertEquals(client.analyzeMatch(mat, AnalysisLevel.ANALYSIS_LEVEL_ADVANCED), review);
      assertEquals(3, review.getGames());
    }
  }

  @Test
  void theComputerStartsAndSteps() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      NewMatchResponse opened = client.newMatch(1);
      SuggestActionResponse first = client.suggestAction(opened.getState(), AnalysisLevel.ANALYSIS_LEVEL_BEGINNER);
      assertEquals(ActionKind.ACTION_KIND_START_GAME, first.getAction().getKind());
      ActResponse started = client.actWithTestDice(opened.getState(), first.getAction(), 5, 1);
      SuggestActionResponse step = client.suggestAction(started.getState(), AnalysisLevel.ANALYSIS_LEVEL_BEGINNER);
      assertEquals(
          List.of(ActionKind.ACTION_KIND_STEP, Side.SIDE_WHITE),
          List.of(step.getAction().getKind(), step.getAction().getSide()));
      ActResponse stepped = client.act(started.getState(), step.getAction());
      assertEquals(started.getView().getSequence() + 1, stepped.getView().getSequence());
    }
  }
}
