// Quickstart: the starting position, the legal moves of 5-1, the first one played.
// Run with a server on localhost:50051 (`make serve`): go run ./examples/quickstart [target]
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/tavla-engine/tavla-engine/clients/go/tavla"
	tavlav1 "github.com/tavla-engine/tavla-engine/clients/go/tavlav1"
)

func main() {
	target := tavla.DefaultTarget
	if len(os.Args) > 1 {
		target = os.Args[1]
	}
	client, err := tavla.NewClient(target)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()
	start, err := client.GetInitialPosition(ctx, tavlav1.Side_SIDE_WHITE)
	if err != nil {
		log.Fatal(err)
	}
	moves, err := client.ListLegalMoves(ctx, start, 5, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(moves), "legal moves; playing", moves[0].GetNotation())
	after, err := client.ApplyMove(ctx, start, 5, 1, moves[0])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(after.GetMove().GetResult().GetIds().GetPositionId())
}
