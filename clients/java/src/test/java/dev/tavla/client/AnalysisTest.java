package dev.tavla.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tavla.v1.ActResponse;
import dev.tavla.v1.ActionKind;
import dev.tavla.v1.AnalysisLevel;
import dev.tavla.v1.AnalyzeMatchResponse;
import dev.tavla.v1.AnalyzedMove;
import dev.tavla.v1.CubeAdvice;
import dev.tavla.v1.EvaluatePositionResponse;
import dev.tavla.v1.Evaluator;
import dev.tavla.v1.NewMatchResponse;
import dev.tavla.v1.PlayerReview;
import dev.tavla.v1.Position;
import dev.tavla.v1.Side;
import dev.tavla.v1.SuggestActionResponse;
import dev.tavla.v1.SuggestCubeActionResponse;
import dev.tavla.v1.SuggestMoveResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The AnalysisService helpers against the live server (bgsage's net, in .venv-test) at the cheap
 * 1-ply levels: the start's 3-1 ranked, its prospects and cube, a 3-game .mat reviewed, and the
 * computer's first two actions of a refereed match, each sent to act.
 */
class AnalysisTest {
  private static final AnalysisLevel LEVEL = AnalysisLevel.ANALYSIS_LEVEL_INTERMEDIATE;

  @Test
  void movesPositionAndCube() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      Position start = TavlaClient.byId(TavlaClient.START_POSITION_ID);
      SuggestMoveResponse ranked = client.suggestMove(start, 3, 1, LEVEL, 3);
      assertEquals(3, ranked.getMovesCount());
      assertEquals(
          List.of(LEVEL, Evaluator.EVALUATOR_NEURAL_NET, 1),
          List.of(ranked.getInfo().getLevel(), ranked.getInfo().getEvaluator(), ranked.getInfo().getPly()));
      AnalyzedMove best =
          ranked.getMovesList().stream().filter(m -> m.getEquityLoss() == 0).findFirst().orElse(null);
      assertNotNull(best, ranked.toString());
      assertEquals("8/5 6/5", best.getMove().getNotation()); // the point-making play
      for (AnalyzedMove m : ranked.getMovesList()) {
        assertEquals(best.getEquity() - m.getEquity(), m.getEquityLoss(), 1e-9, m.getMove().getNotation());
      }
      EvaluatePositionResponse evaluated = client.evaluatePosition(start, null, LEVEL);
      double win = evaluated.getProbabilities().getWin();
      assertTrue(win > 0.5 && win < 0.56, "win " + win);
      assertTrue(evaluated.getProbabilities().getWinGammon() < win);
      SuggestCubeActionResponse cube = client.suggestCubeAction(start, null, LEVEL);
      assertEquals(
          List.of(CubeAdvice.CUBE_ADVICE_NO_DOUBLE, true, false),
          List.of(cube.getAdvice(), cube.getDoubleAvailable(), cube.getShouldDouble()));
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
