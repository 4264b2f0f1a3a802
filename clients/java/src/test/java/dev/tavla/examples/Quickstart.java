package dev.tavla.examples;

import dev.tavla.client.TavlaClient;
import dev.tavla.v1.ApplyMoveResponse;
import dev.tavla.v1.Move;
import dev.tavla.v1.Position;
import dev.tavla.v1.Side;
import java.util.List;

/** Quickstart: the starting position, the legal moves of 5-1, the first one played. */
public final class Quickstart {
  public static void main(String[] args) throws Exception {
    String target = args.length > 0 ? args[0] : "localhost:50051";
    try (TavlaClient engine = TavlaClient.create(target)) {
      Position start = engine.getInitialPosition(Side.SIDE_WHITE);
      List<Move> moves = engine.listLegalMoves(start, 5, 1); // every legal play of 5-1
      System.out.println(moves.size() + " legal moves; playing " + moves.get(0).getNotation());
      ApplyMoveResponse after = engine.applyMove(start, 5, 1, moves.get(0));
      System.out.println(after.getMove().getResult().getIds().getPositionId()); // black on roll now
    }
  }
}
