// Package kit is the Kafana kit for Go: it serves a decision function as a bot, so that a bot is only its
// decisions.
//
//	kit.Serve(kit.Info{Name: "first", Games: []string{"tapa"}}, func(request *kafanav1.ActRequest) *kafanav1.ActResponse {
//		return &kafanav1.ActResponse{ActionId: request.GetLegalActions()[0].GetId()}
//	})
//
// The referee starts the bot with KAFANA_BOT_ADDRESS set to where it must listen ("unix:/path" or
// "127.0.0.1:PORT"); Serve listens there, answers Hello from the Info, passes every Act to the decision and every
// Notify to Info.OnEvent (whether they come as calls or on the Session stream, which it serves and says so in
// Hello), and exits when the referee (its parent) is gone.
package kit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	kafanav1 "kafana.example/random-go/kafanav1"
)

// Info says who the bot is: its answer to Hello.
type Info struct {
	Name    string
	Version string // "1.0" when empty
	Author  string
	Games   []string // the game ids it plays; the referee seats it in no other
	// WithoutActionDetail: the bot reads only each legal action's id and notation, and the requests leave each
	// action's structured detail out.
	WithoutActionDetail bool
	// OnEvent, when set, is told when a game or a match ends.
	OnEvent func(*kafanav1.Notification)
}

// Decide answers one decision: the ActionId must be the id of one of the request's legal actions.
type Decide func(*kafanav1.ActRequest) *kafanav1.ActResponse

type service struct {
	kafanav1.UnimplementedBotServer
	hello   *kafanav1.HelloResponse
	decide  Decide
	onEvent func(*kafanav1.Notification)
}

func (s *service) Hello(context.Context, *kafanav1.HelloRequest) (*kafanav1.HelloResponse, error) {
	return s.hello, nil
}

func (s *service) Act(_ context.Context, request *kafanav1.ActRequest) (*kafanav1.ActResponse, error) {
	if len(request.GetLegalActions()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "no legal actions")
	}
	return s.decide(request), nil
}

func (s *service) Notify(_ context.Context, request *kafanav1.Notification) (*kafanav1.NotifyResponse, error) {
	if s.onEvent != nil {
		s.onEvent(request)
	}
	return &kafanav1.NotifyResponse{}, nil
}

// Session answers each request of the referee's stream, in order, as Act and Notify answer their calls.
func (s *service) Session(stream kafanav1.Bot_SessionServer) error {
	for {
		request, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		response := &kafanav1.SessionResponse{}
		if act := request.GetAct(); act != nil {
			answer, err := s.Act(stream.Context(), act)
			if err != nil {
				return err
			}
			response.Message = &kafanav1.SessionResponse_Act{Act: answer}
		} else {
			notified, _ := s.Notify(stream.Context(), request.GetNotify())
			response.Message = &kafanav1.SessionResponse_Notified{Notified: notified}
		}
		if err := stream.Send(response); err != nil {
			return err
		}
	}
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

// Serve serves decide as the bot info at $KAFANA_BOT_ADDRESS until the referee stops it; it never returns.
func Serve(info Info, decide Decide) {
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
	version := info.Version
	if version == "" {
		version = "1.0"
	}
	hello := &kafanav1.HelloResponse{Name: info.Name, Version: version, Author: info.Author, Language: "go",
		Games: info.Games, WithoutActionDetail: info.WithoutActionDetail, Session: true}
	server := grpc.NewServer(grpc.MaxRecvMsgSize(64 << 20))
	kafanav1.RegisterBotServer(server, &service{hello: hello, decide: decide, onEvent: info.OnEvent})
	if err := server.Serve(listener); err != nil {
		fmt.Fprintf(os.Stderr, "server stopped: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}
