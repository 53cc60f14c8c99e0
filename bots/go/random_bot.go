// Kafana starter bot in Go: answers every decision with a random legal action, seeded by the decision so that
// equal requests get equal answers. Write your own decision in choose; the view (request.GetBackgammon(), ...)
// and each action's detail are described in proto/kafana/v1/bot.proto. Package kit does the serving; the referee
// starts build/random_bot (see bot.toml; `make` builds it).
package main

import (
	"fmt"
	"hash/fnv"
	"math/rand"

	kafanav1 "kafana.example/random-go/kafanav1"
	"kafana.example/random-go/kit"
)

var games = []string{"durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa"}

func choose(request *kafanav1.ActRequest) *kafanav1.ActResponse {
	key := fnv.New64a()
	fmt.Fprintf(key, "%s/%d/%d/%d", request.GetMatchId(), request.GetGameNumber(), request.GetSeat(), request.GetDecision())
	rng := rand.New(rand.NewSource(int64(key.Sum64())))
	legal := request.GetLegalActions()
	return &kafanav1.ActResponse{ActionId: legal[rng.Intn(len(legal))].GetId()}
}

func main() {
	// Reads only the ids: the requests come without each action's structured detail.
	kit.Serve(kit.Info{Name: "random-go", Version: "1.0", Author: "Kafana", Games: games, WithoutActionDetail: true}, choose)
}
