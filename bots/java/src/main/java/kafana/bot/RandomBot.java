package kafana.bot;

import java.util.List;
import java.util.Random;
import kafana.kit.Kit;
import kafana.v1.ActRequest;
import kafana.v1.ActResponse;

/**
 * The random bot: a uniformly random legal action, seeded by the decision, so that equal requests get equal
 * answers. Write your own decision in {@link #choose}; the seat's view ({@code request.getBackgammon()}, ...) and
 * each action's detail are described in {@code proto/kafana/v1/bot.proto}.
 */
public final class RandomBot {
  /** Every game the referee knows. */
  static final List<String> GAMES = List.of("durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa");

  private RandomBot() {}

  static ActResponse choose(ActRequest request) {
    String key = request.getMatchId() + "/" + request.getGameNumber() + "/" + request.getSeat() + "/"
        + request.getDecision();
    Random random = new Random(key.hashCode());
    int pick = random.nextInt(request.getLegalActionsCount());
    return ActResponse.newBuilder().setActionId(request.getLegalActions(pick).getId()).build();
  }

  public static void main(String[] args) {
    // Reads only the ids: requests come without each action's structured detail.
    Kit.serve(new Kit.Info("random-java", "1.0", "Kafana", GAMES, false), RandomBot::choose);
  }
}
