package dev.tavla.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tavla.v1.Board;
import dev.tavla.v1.CheckerMove;
import dev.tavla.v1.Move;
import dev.tavla.v1.Position;
import dev.tavla.v1.Ruleset;
import dev.tavla.v1.Side;
import dev.tavla.v1.VariantFacts;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each variant's facts read from ListRulesets against the live server ({@link
 * TavlaClient#variantFacts}, kept per client) and used; and rollDice reads its position under the
 * ruleset it sends.
 */
class VariantFactsTest {
  /** Point {@code p} of one side's numbering in the other's (docs/variants.md). */
  private static int otherPoint(int p, boolean same) {
    return same ? (p + 11) % 24 + 1 : 25 - p;
  }

  @Test
  void factsAreReadByAnyNameOnce() throws Exception {
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      VariantFacts plakoto = client.variantFacts("Mahbusa");
      assertEquals(
          List.of("plakoto", "opposite", "pin", false, 15, 6),
          List.of(plakoto.getName(), plakoto.getDirection(), plakoto.getContact(), plakoto.getBar(),
              plakoto.getCheckers(), plakoto.getHome()));
      VariantFacts gulBara = client.variantFacts("gul-bara");
      assertEquals("gul_bara", gulBara.getName());
      assertTrue(VariantTable.sameDirection(gulBara));
      assertTrue(gulBara.getDoublesCascade());
      assertEquals("backgammon", client.variantFacts("international").getName()); // a preset's name
      assertEquals(3, client.variantFacts("hyper").getCheckers());
      assertSame(client.variants(), client.variants()); // one ListRulesets call, kept
      assertSame(client.variants(), client.withLocale("tr").variants()); // and shared
      IllegalArgumentException err =
          assertThrows(IllegalArgumentException.class, () -> client.variantFacts("chess"));
      assertTrue(err.getMessage().startsWith("unknown variant \"chess\": ListRulesets lists backgammon"), err.getMessage());
      assertTrue(err.getMessage().contains("plakoto"), err.getMessage());
      assertEquals("long_nardy", VariantTable.key("  Long-Nardy "));
    }
  }

  /**
   * Every checker starts on its side's 24 point; 6-6 takes white's head to its 12 point unless
   * black's head, black's 24 read in white's numbering by the direction, stands there.
   */
  @Test
  void theDirectionSaysWhereTheOtherHeadStands() throws Exception {
    try (TavlaClient base = TavlaClient.create(LiveServer.target())) {
      for (String preset : List.of("plakoto", "fevga", "gul_bara", "long_nardy")) {
        TavlaClient client = base.withRuleset(Ruleset.newBuilder().setPreset(preset).build());
        VariantFacts facts = client.variantFacts(preset);
        Position start = client.getInitialPosition(Side.SIDE_WHITE);
        Board board = start.getBoard();
        assertEquals(facts.getCheckers(), board.getWhite().getPoints(23), preset);
        assertEquals(facts.getCheckers(), board.getBlack().getPoints(23), preset);
        boolean reached = false;
        for (Move m : client.listLegalMoves(start, 6, 6)) {
          for (CheckerMove c : m.getCheckerMovesList()) reached |= c.getToPoint() == 12;
        }
        assertEquals(otherPoint(24, VariantTable.sameDirection(facts)) != 12, reached, preset);
      }
    }
  }

  @Test
  void rollDiceReadsThePositionUnderTheRuleset() throws Exception {
    Position start = TavlaClient.byId(TavlaClient.START_POSITION_ID);
    Ruleset hyper = Ruleset.newBuilder().setPreset("hypergammon").build();
    try (TavlaClient client = TavlaClient.create(LiveServer.target())) {
      assertEquals(2, client.rollDice(start).getDiceCount());
      for (Runnable call : List.<Runnable>of(() -> client.rollDice(start, hyper), () -> client.withRuleset(hyper).rollDice(start))) {
        // 15 checkers a side: not a hypergammon position
        StatusRuntimeException err = assertThrows(StatusRuntimeException.class, call::run);
        assertEquals(Status.Code.INVALID_ARGUMENT, EngineError.from(err).code());
        assertTrue(EngineError.from(err).message().contains("position"), EngineError.from(err).message());
      }
      assertFalse(client.withRuleset(hyper).rollDice().getDiceList().isEmpty()); // no position: no ruleset read
    }
  }
}
