// Kafana starter bot in Go: answers every Act with a random legal action id.
//
// The referee starts build/random_bot (see bot.toml; `make` builds it) with KAFANA_BOT_ADDRESS set to the address
// to listen on: "unix:/path/to/socket" or "127.0.0.1:PORT". Everything about the protocol is in
// proto/kafana/v1/bot.proto; the view (request.GetBackgammon()) and each action's detail are there for a real bot.
package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	kafanav1 "kafana.example/random-go/kafanav1"
)

var games = []string{"durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa"}

type randomBot struct {
	kafanav1.UnimplementedBotServer
}

func (randomBot) Hello(context.Context, *kafanav1.HelloRequest) (*kafanav1.HelloResponse, error) {
	return &kafanav1.HelloResponse{Name: "random-go", Version: "1.0", Author: "Kafana", Language: "go", Games: games}, nil
}

func (randomBot) Act(_ context.Context, request *kafanav1.ActRequest) (*kafanav1.ActResponse, error) {
	legal := request.GetLegalActions()
	if len(legal) == 0 {
		return nil, status.Error(codes.InvalidArgument, "no legal actions")
	}
	// Seeded by the decision, so that equal requests get equal answers.
	key := fnv.New64a()
	fmt.Fprintf(key, "%s/%d/%d/%d", request.GetMatchId(), request.GetGameNumber(), request.GetSeat(), request.GetDecision())
	rng := rand.New(rand.NewSource(int64(key.Sum64())))
	return &kafanav1.ActResponse{ActionId: legal[rng.Intn(len(legal))].GetId()}, nil
}

func (randomBot) Notify(context.Context, *kafanav1.Notification) (*kafanav1.NotifyResponse, error) {
	return &kafanav1.NotifyResponse{}, nil
}

// listen opens "unix:/path" as a Unix socket and anything else as a TCP address.
func listen(address string) (net.Listener, error) {
	if path := strings.TrimPrefix(address, "unix:"); path != address {
		return net.Listen("unix", path)
	}
	return net.Listen("tcp", address)
}

// watchParent exits when the referee (our parent) is gone, even if it was killed.
func watchParent() {
	parent := os.Getppid()
	for os.Getppid() == parent {
		time.Sleep(500 * time.Millisecond)
	}
	os.Exit(0)
}

func main() {
	address := os.Getenv("KAFANA_BOT_ADDRESS")
	if address == "" {
		fmt.Fprintln(os.Stderr, "KAFANA_BOT_ADDRESS is not set: bots are started by the referee (referee play ...)")
		os.Exit(2)
	}
	listener, err := listen(address)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot listen on %s: %v\n", address, err)
		os.Exit(1)
	}
	go watchParent()
	server := grpc.NewServer()
	kafanav1.RegisterBotServer(server, randomBot{})
	if err := server.Serve(listener); err != nil {
		fmt.Fprintf(os.Stderr, "server stopped: %v\n", err)
		os.Exit(1)
	}
}
